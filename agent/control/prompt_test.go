package control_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/agent/control"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
	"github.com/agent-lsp/agent-lsp/tools"
)

// prompts is a fake MCP prompt source.
type prompts struct {
	got map[string]string
	err error
}

func (p *prompts) Prompts() []tools.PromptInfo {
	return []tools.PromptInfo{{Server: "demo", Name: "weather", Title: "The weather",
		Arguments: []tools.PromptArgument{{Name: "city", Required: true}}}}
}

func (p *prompts) GetPrompt(_ context.Context, server, name string, args map[string]string) (string, error) {
	if p.err != nil {
		return "", p.err
	}
	p.got = args
	return "What is the weather in " + args["city"] + "?", nil
}

// Modes switch by name, refuse an unknown one, and are sent as updates;
// /mode does the same from a prompt without a model call.
func TestModes(t *testing.T) {
	f := newFixture(t, nil, fixtureOptions{})
	s := f.newSession("")
	if s.Mode() != agent.ModeDefault {
		t.Errorf("initial mode %q", s.Mode())
	}
	if m, err := s.SetMode("plan"); err != nil || m != agent.ModePlan || s.Mode() != agent.ModePlan {
		t.Fatalf("SetMode(plan) = %q, %v", m, err)
	}
	_, err := s.SetMode("frobnicate")
	mustKind(t, err, control.ErrInvalid)
	res, err := s.Prompt(context.Background(), control.PromptInput{Text: "/mode ask"}, discard)
	if err != nil || res.Command != "/mode" || !res.Answered || res.Outcome.StopReason != agent.StopEndTurn || !strings.Contains(res.Outcome.Text, "ask") {
		t.Fatalf("/mode ask: %+v, %v (a built-in command is answered by the session)", res, err)
	}
	res, err = s.Prompt(context.Background(), control.PromptInput{Text: "/mode"}, discard)
	if err != nil || !strings.Contains(res.Outcome.Text, "Mode: ask.") || !strings.Contains(res.Outcome.Text, "auto-edit") {
		t.Errorf("bare /mode: %q, %v", res.Outcome.Text, err)
	}
	u := f.updates.of(control.UpdateMode)
	if len(u) != 2 || u[0].Mode != agent.ModePlan || u[1].Mode != agent.ModeAsk {
		t.Errorf("mode updates %+v", u)
	}
	if len(f.model.Requests()) != 0 {
		t.Error("a built-in command called the model")
	}
}

// The built-in and MCP commands: listed, run, their errors typed.
func TestSlashCommands(t *testing.T) {
	f := newFixture(t, providertest.Script{{Text: "sunny"}}, fixtureOptions{})
	src := &prompts{}
	s, err := f.ctl.NewSession(f.binding(src), "")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range s.Commands() {
		names = append(names, c.Name+"("+c.Source+")")
		if c.Arguments == nil {
			t.Errorf("%s: nil arguments", c.Name)
		}
	}
	if got := strings.Join(names, " "); got != "/compact(builtin) /clear(builtin) /mode(builtin) /model(builtin) /rewind(builtin) /skills(builtin) /hooks(builtin) /worktree(builtin) /budget(builtin) /agents(builtin) /permissions(builtin) /mcp__demo__weather(mcp:demo)" {
		t.Errorf("commands %s", got)
	}
	if !control.IsBuiltin("/rewind") || control.IsBuiltin("/mcp__demo__weather") {
		t.Error("IsBuiltin")
	}

	res, err := s.Prompt(context.Background(), control.PromptInput{Text: "/mcp__demo__weather New York"}, discard)
	if err != nil || res.Command != "/mcp__demo__weather" || res.Answered || res.Outcome.Text != "sunny" || src.got["city"] != "New York" {
		t.Fatalf("MCP prompt: %+v, %v, args %v (the model answers it)", res, err, src.got)
	}
	if got := lastUserText(t, f.model.Requests()[0]); got != "What is the weather in New York?" {
		t.Errorf("the model was sent %q", got)
	}
	if s.Title() != "What is the weather in New York?" {
		t.Errorf("title %q: the fetched prompt names the session", s.Title())
	}

	for _, tc := range []struct {
		text string
		kind error
		has  string
	}{
		{"/frobnicate now", control.ErrInvalid, "unknown command /frobnicate"},
		{`/mcp__demo__weather city="open`, control.ErrInvalid, "unterminated quote"},
		{"/rewind 3", control.ErrInvalid, "from 1 to 1"}, // the MCP prompt's checkpoint
		{"/rewind x", control.ErrInvalid, "checkpoint number"},
	} {
		_, err := s.Prompt(context.Background(), control.PromptInput{Text: tc.text}, discard)
		mustKind(t, err, tc.kind)
		if !strings.Contains(err.Error(), tc.has) {
			t.Errorf("%s: %v", tc.text, err)
		}
	}
	src.err = errors.New("server demo is down")
	_, err = s.Prompt(context.Background(), control.PromptInput{Text: "/mcp__demo__weather Paris"}, discard)
	if err == nil || errors.Is(err, control.ErrInvalid) || !strings.Contains(err.Error(), "server demo is down") {
		t.Errorf("a failing prompt server: %v", err)
	}

	res, err = s.Prompt(context.Background(), control.PromptInput{Text: "/rewind"}, discard)
	if err != nil || !strings.Contains(res.Outcome.Text, `1. `) || !strings.Contains(res.Outcome.Text, `"What is the weather in New York?"  (no files changed)`) {
		t.Errorf("/rewind: %+v, %v (each checkpoint names the files it holds)", res, err)
	}
	res, err = s.Prompt(context.Background(), control.PromptInput{Text: "/model"}, discard)
	if err != nil || !strings.HasPrefix(res.Outcome.Text, "Model: deepseek-flash (openai, ") {
		t.Errorf("/model: %q, %v", res.Outcome.Text, err)
	}
	res, err = s.Prompt(context.Background(), control.PromptInput{Text: "/compact"}, discard)
	if err != nil || res.Compaction == nil || !strings.HasPrefix(res.Outcome.Text, "Nothing to compact") {
		t.Errorf("/compact: %+v, %v", res, err)
	}
	res, err = s.Prompt(context.Background(), control.PromptInput{Text: "/clear"}, discard)
	if err != nil || res.Outcome.Text != "Cleared the conversation." || len(s.Agent().History()) > 1 {
		t.Errorf("/clear: %+v, %v, %d messages left", res, err, len(s.Agent().History()))
	}
	if u := f.updates.of(control.UpdatePlan); len(u) != 1 || u[0].Plan == nil || len(u[0].Plan) != 0 {
		t.Errorf("/clear plan updates %+v", u)
	}
	if len(f.model.Requests()) != 1 {
		t.Errorf("%d model calls, want 1 (the MCP prompt's)", len(f.model.Requests()))
	}
}

// A prompt's plan becomes a plan update, not a listener event; the
// listener gets the others.
func TestPlanUpdates(t *testing.T) {
	plan := `{"items":[{"content":"read","status":"in_progress"},{"content":"fix","status":"pending"}]}`
	f := newFixture(t, providertest.Script{
		{ToolCalls: []providertest.Call{{ID: "call_p1", Name: tools.TodoWriteName, Arguments: plan}}},
		{Text: "planned"},
	}, fixtureOptions{})
	s := f.newSession("")
	ev := &events{}
	res, err := s.Prompt(context.Background(), control.PromptInput{Text: "plan it"}, ev)
	if err != nil || res.Outcome.Text != "planned" {
		t.Fatalf("%+v, %v", res, err)
	}
	u := f.updates.of(control.UpdatePlan)
	if len(u) != 1 || len(u[0].Plan) != 2 || u[0].Plan[0].Content != "read" || u[0].Plan[1].Status != "pending" {
		t.Errorf("plan updates %+v", u)
	}
	for _, e := range ev.all {
		if e.Kind == agent.EventPlan {
			t.Error("the listener got the plan event")
		}
	}
	if got := s.Agent().Plan(); len(got) != 2 {
		t.Errorf("session plan %+v", got)
	}
}

// Mentions, context files and client resources are attached, each with a
// mention update; a verbatim prompt attaches nothing and runs no command.
func TestMentionsAndResources(t *testing.T) {
	f := newFixture(t, providertest.Script{{Text: "ok"}, {Text: "ok"}},
		fixtureOptions{files: map[string]string{"a.go": "package a\n", "b.txt": "bee\n"}})
	s := f.newSession("")
	in := control.PromptInput{Text: "look at @a.go and @missing.go", Context: "\n\n(The user is looking at b.txt.)",
		Files: []string{"b.txt"}, Resources: []control.Resource{{Path: f.ws.Roots()[0] + "/unsaved.go", Text: "package unsaved\n"}}}
	res, err := s.Prompt(context.Background(), in, discard)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range res.Mentions {
		got = append(got, m.Path+":"+m.Status)
	}
	if strings.Join(got, " ") != "a.go:attached missing.go:"+res.Mentions[1].Status+" b.txt:attached unsaved.go:attached" ||
		res.Mentions[1].Status == agent.MentionAttached {
		t.Errorf("mentions %v", got)
	}
	if u := f.updates.of(control.UpdateMention); len(u) != 4 || u[3].Mention.Path != "unsaved.go" {
		t.Errorf("mention updates %+v", u)
	}
	sent := lastUserText(t, f.model.Requests()[0])
	for _, want := range []string{"look at @a.go", "(The user is looking at b.txt.)", "package a", "bee", "Attached unsaved.go:\n```\npackage unsaved\n```"} {
		if !strings.Contains(sent, want) {
			t.Errorf("the model was not sent %q:\n%s", want, sent)
		}
	}

	res, err = s.Prompt(context.Background(), control.PromptInput{Text: "/mode is @a.go", Verbatim: true}, discard)
	if err != nil || res.Command != "" || res.Mentions != nil {
		t.Fatalf("verbatim: %+v, %v", res, err)
	}
	if sent := lastUserText(t, f.model.Requests()[1]); sent != "/mode is @a.go" {
		t.Errorf("verbatim sent %q", sent)
	}
	_, err = s.Prompt(context.Background(), control.PromptInput{Text: "  "}, discard)
	mustKind(t, err, control.ErrInvalid)
}

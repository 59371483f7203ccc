package agent_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/internal/await"
	"github.com/agent-lsp/agent-lsp/permission"
	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/provider/anthropic"
	"github.com/agent-lsp/agent-lsp/provider/openai"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
	"github.com/agent-lsp/agent-lsp/tools"
)

// The two-dialect scenario: the same question through both dialects must
// give the same rounds, the same tool results and the same usage.
const m5Question = "How many .java files are in this project, and what does Calculator.add do?"

const m5Answer = "There are 3 .java files. Calculator.add(int a, int b) returns a + b, the sum of its two arguments."

// m5Script is the model's side: glob and grep in one parallel round, then
// read_file, then the answer. Usage numbers are ones measured against DeepSeek's API.
func m5Script() providertest.Script {
	return providertest.Script{
		{
			Text: "I'll look for the Java files and the add method.",
			ToolCalls: []providertest.Call{
				{ID: "call_glob", Name: "glob", Arguments: `{"pattern":"**/*.java"}`},
				{ID: "call_grep", Name: "grep", Arguments: `{"pattern":"int add\\("}`},
			},
			Usage: provider.Usage{PromptTokens: 1607, CompletionTokens: 92, CachedTokens: 1408},
		},
		{
			ToolCalls: []providertest.Call{
				{ID: "call_read", Name: "read_file", Arguments: `{"path":"src/main/java/demo/Calculator.java"}`},
			},
			Usage: provider.Usage{PromptTokens: 1778, CompletionTokens: 44, CachedTokens: 1536},
		},
		{
			Text:  m5Answer,
			Usage: provider.Usage{PromptTokens: 1973, CompletionTokens: 91, CachedTokens: 1792},
		},
	}
}

var fixtureTime = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

// javaProject copies testdata/java-project into a temporary workspace and
// adds build output that its .gitignore excludes. The ignored file is made
// here, not kept in testdata, because git would not track it either.
func javaProject(t *testing.T) string {
	t.Helper()
	dst := t.TempDir()
	src := filepath.Join("..", "testdata", "java-project")
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if err := os.WriteFile(target, data, 0o644); err != nil {
			return err
		}
		// One mtime for all: glob lists newest first, and equal times
		// fall back to path order, so the output is the same every run.
		return os.Chtimes(target, fixtureTime, fixtureTime)
	})
	if err != nil {
		t.Fatal(err)
	}
	gen := filepath.Join(dst, "build", "generated", "demo")
	if err := os.MkdirAll(gen, 0o755); err != nil {
		t.Fatal(err)
	}
	stale := "package demo;\npublic class Calculator { public int add(int a, int b) { return 0; } }\n"
	if err := os.WriteFile(filepath.Join(gen, "Calculator.java"), []byte(stale), 0o644); err != nil {
		t.Fatal(err)
	}
	return dst
}

// dialectRun is what one dialect's run produced.
type dialectRun struct {
	outcome  agent.Outcome
	events   []canonEvent
	history  []provider.Message
	requests []providertest.Received
}

// newSession wires a session the way the binary does: the real HTTP
// provider and dialect against the fake server, the built-in tools, and a
// permission policy that approves everything (as --yes does).
func newSession(t *testing.T, dialect string, srv *providertest.Server, root string) *agent.Session {
	t.Helper()
	return sessionWith(t, dialect, srv, root, nil)
}

// sessionWith is newSession with adjust, when set, changing the
// configuration first (the limits under test).
func sessionWith(t testing.TB, dialect string, srv *providertest.Server, root string, adjust func(*agent.Config)) *agent.Session {
	t.Helper()
	opts := provider.HTTPOptions{APIKey: "test-key", Client: srv.Client()}
	switch dialect {
	case openai.Name:
		opts.Dialect, opts.BaseURL = openai.NewDialect(), srv.OpenAIBaseURL()
	case anthropic.Name:
		opts.Dialect, opts.BaseURL = anthropic.NewDialect(), srv.AnthropicBaseURL()
	}
	p, err := provider.NewHTTP(opts)
	if err != nil {
		t.Fatal(err)
	}
	ws, err := tools.NewWorkspace(root)
	if err != nil {
		t.Fatal(err)
	}
	reg := tools.NewRegistry()
	if err := tools.RegisterBuiltins(reg); err != nil {
		t.Fatal(err)
	}
	cfg := agent.Config{
		Provider:  p,
		Model:     "deepseek-flash",
		MaxTokens: 4096,
		Tools:     reg,
		Env:       &tools.Env{Workspace: ws, Docs: &tools.DiskDocuments{Workspace: ws}},
		Gate:      permission.NewPolicy(permission.AutoApprover{}),
	}
	if adjust != nil {
		adjust(&cfg)
	}
	return agent.NewSession(cfg, agent.SystemPrompt(ws, "linux", "/bin/bash"))
}

func runM5(t *testing.T, dialect string) dialectRun {
	t.Helper()
	srv := providertest.NewServer(t, m5Script(), providertest.WithSeed(5))
	s := newSession(t, dialect, srv, javaProject(t))
	var events []agent.Event
	o := s.Prompt(t.Context(), m5Question, agent.ListenerFunc(func(e agent.Event) { events = append(events, e) }))
	return dialectRun{outcome: o, events: canonical(events), history: s.History(), requests: srv.Requests()}
}

func TestM5ScenarioBothDialects(t *testing.T) {
	runs := map[string]dialectRun{}
	for _, d := range []string{openai.Name, anthropic.Name} {
		t.Run(d, func(t *testing.T) {
			r := runM5(t, d)
			runs[d] = r
			for i, rq := range r.requests {
				if rq.Rejected != "" {
					t.Errorf("request %d rejected (%d): %s", i, rq.Status, rq.Rejected)
				}
			}
			if len(r.requests) != 3 {
				t.Errorf("%d requests, want 3", len(r.requests))
			}
			o := r.outcome
			if o.StopReason != agent.StopEndTurn || o.Rounds != 3 || o.Err != nil || o.Text != m5Answer {
				t.Fatalf("outcome = %+v", o)
			}
			wantUsage := provider.Usage{PromptTokens: 1607 + 1778 + 1973, CompletionTokens: 92 + 44 + 91, CachedTokens: 1408 + 1536 + 1792}
			if o.Usage != wantUsage {
				t.Errorf("usage = %+v, want %+v", o.Usage, wantUsage)
			}
			checkM5ToolResults(t, r.history)
		})
	}
	a, b := runs[openai.Name], runs[anthropic.Name]
	if a.events == nil || b.events == nil {
		t.Fatal("a dialect did not run")
	}
	if !reflect.DeepEqual(a.events, b.events) {
		t.Errorf("events differ between dialects:\nopenai:    %+v\nanthropic: %+v", a.events, b.events)
	}
	if !reflect.DeepEqual(toolResults(a.history), toolResults(b.history)) {
		t.Errorf("tool results differ:\nopenai:    %q\nanthropic: %q", toolResults(a.history), toolResults(b.history))
	}
}

// checkM5ToolResults checks what the tools told the model: three sources
// (the ignored build output not among them), where add is, and its body.
func checkM5ToolResults(t *testing.T, h []provider.Message) {
	t.Helper()
	results := map[string]provider.Message{}
	for _, m := range h {
		if m.Role == provider.RoleTool {
			results[m.ToolCallID] = m
		}
	}
	glob, grep, read := results["call_glob"], results["call_grep"], results["call_read"]
	for _, m := range []provider.Message{glob, grep, read} {
		if m.IsError {
			t.Errorf("tool %s failed: %s", m.ToolCallID, m.Text)
		}
	}
	for _, f := range []string{"Calculator.java", "Main.java", "CalculatorTest.java"} {
		if !strings.Contains(glob.Text, f) {
			t.Errorf("glob result lacks %s:\n%s", f, glob.Text)
		}
	}
	if strings.Contains(glob.Text, "build") || strings.Count(glob.Text, ".java") != 3 {
		t.Errorf("glob must list exactly the 3 tracked sources:\n%s", glob.Text)
	}
	if !strings.Contains(grep.Text, "src/main/java/demo/Calculator.java") || strings.Contains(grep.Text, "build") {
		t.Errorf("grep result:\n%s", grep.Text)
	}
	if !strings.Contains(read.Text, "return a + b;") {
		t.Errorf("read_file result:\n%s", read.Text)
	}
	// The parallel round's results follow the model's order.
	var order []string
	for _, m := range h {
		if m.Role == provider.RoleTool {
			order = append(order, m.ToolCallID)
		}
	}
	if !slices.Equal(order, []string{"call_glob", "call_grep", "call_read"}) {
		t.Errorf("tool result order = %v", order)
	}
}

func toolResults(h []provider.Message) []string {
	var out []string
	for _, m := range h {
		if m.Role == provider.RoleTool {
			out = append(out, m.ToolCallID+": "+m.Text)
		}
	}
	return out
}

// canonEvent is an Event in a form that compares across dialects: the
// fake cuts deltas at different places per dialect, and parallel tool
// calls start and finish in any order.
type canonEvent struct {
	Kind       agent.EventKind
	Round      int
	Text       string
	ToolCallID string
	ToolName   string
	Arguments  string
	Status     tools.Status
	Output     string
	StopReason agent.StopReason
	ModelStop  provider.StopReason
	Usage      provider.Usage
	Err        string
}

func canonical(events []agent.Event) []canonEvent {
	var out []canonEvent
	for _, e := range events {
		c := canonEvent{Kind: e.Kind, Round: e.Round, Text: e.Text, ToolCallID: e.ToolCallID, ToolName: e.ToolName,
			Status: e.Status, Output: e.Output, StopReason: e.StopReason, ModelStop: e.ModelStop, Usage: e.Usage}
		if e.Err != nil {
			c.Err = e.Err.Error()
		}
		if len(e.Arguments) > 0 {
			var buf bytes.Buffer
			if err := json.Compact(&buf, e.Arguments); err == nil {
				c.Arguments = buf.String()
			} else {
				c.Arguments = string(e.Arguments)
			}
		}
		if n := len(out); n > 0 && (c.Kind == agent.EventText || c.Kind == agent.EventReasoning) &&
			out[n-1].Kind == c.Kind && out[n-1].Round == c.Round {
			out[n-1].Text += c.Text // one delta per run of deltas
			continue
		}
		out = append(out, c)
	}
	// Within each run of tool events, order by call then kind.
	isTool := func(k agent.EventKind) bool { return k == agent.EventToolCall || k == agent.EventToolResult }
	for i := 0; i < len(out); {
		j := i
		for j < len(out) && isTool(out[j].Kind) {
			j++
		}
		if j == i {
			i++
			continue
		}
		slices.SortStableFunc(out[i:j], func(a, b canonEvent) int {
			if c := strings.Compare(a.ToolCallID, b.ToolCallID); c != 0 {
				return c
			}
			return strings.Compare(string(a.Kind), string(b.Kind))
		})
		i = j
	}
	return out
}

// TestFirstRequestSize measures the whole first request for "say hi" with
// the built-in tools: every round resends it, so it must stay small.
func TestFirstRequestSize(t *testing.T) {
	for _, d := range []string{openai.Name, anthropic.Name} {
		t.Run(d, func(t *testing.T) {
			srv := providertest.NewServer(t, providertest.Script{{Text: "Hi!", Usage: provider.Usage{PromptTokens: 900, CompletionTokens: 3}}})
			s := newSession(t, d, srv, javaProject(t))
			if o := s.Prompt(t.Context(), "say hi", nil); o.StopReason != agent.StopEndTurn || o.Text != "Hi!" {
				t.Fatalf("outcome = %+v", o)
			}
			reqs := srv.Requests()
			if len(reqs) != 1 || reqs[0].Rejected != "" {
				t.Fatalf("requests = %+v", reqs)
			}
			size := len(reqs[0].Body)
			var body struct {
				Tools []json.RawMessage `json:"tools"`
			}
			if err := json.Unmarshal(reqs[0].Body, &body); err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: first request for \"say hi\" is %d bytes of JSON (system prompt + %d tool schemas)", d, size, len(body.Tools))
			if size > 8192 {
				t.Errorf("first request is %d bytes, want ≤ 8192", size)
			}
		})
	}
}

// TestBadArgumentsAndCancelThroughBothDialects runs the loop's failure
// paths through the real HTTP stack: a call whose argument JSON is cut
// short is a failed result that both APIs accept back in the history, and
// a cancel during a stalled stream ends the prompt (nothing else could:
// the stall never ends), with no request after it.
func TestBadArgumentsAndCancelThroughBothDialects(t *testing.T) {
	for _, d := range []string{openai.Name, anthropic.Name} {
		t.Run(d, func(t *testing.T) {
			srv := providertest.NewServer(t, providertest.Script{
				{ToolCalls: []providertest.Call{{ID: "call_bad", Name: "read_file", Arguments: `{"path": "src/main`}}},
				{ToolCalls: []providertest.Call{{ID: "call_good", Name: "read_file", Arguments: `{"path":"src/main/java/demo/Main.java"}`}}},
				{Text: "Main prints 5."},
				{Text: "never finished", Fault: &providertest.Fault{Stall: providertest.Forever}},
			})
			s := newSession(t, d, srv, javaProject(t))
			o := s.Prompt(t.Context(), "What does Main print?", nil)
			if o.StopReason != agent.StopEndTurn || o.Rounds != 3 {
				t.Fatalf("outcome = %+v", o)
			}
			h := s.History()
			bad := h[3]
			if bad.ToolCallID != "call_bad" || !bad.IsError || !strings.Contains(bad.Text, "invalid arguments JSON") {
				t.Errorf("bad call result = %+v", bad)
			}
			if good := h[5]; good.IsError || !strings.Contains(good.Text, "c.add(2, 3)") {
				t.Errorf("retried call result = %+v", good)
			}

			// The fourth answer stalls before its first frame; cancel while
			// the provider waits on it.
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			ended := make(chan agent.Outcome, 1)
			go func() { ended <- s.Prompt(ctx, "And then?", nil) }()
			asked := len(srv.Requests()) + 1
			if err := srv.WaitRequests(t.Context(), asked); err != nil {
				t.Fatal(err)
			}
			cancel()
			// The stall never ends and the idle timeout is five minutes:
			// only the cancel can end the prompt, and no retry follows it.
			o = await.Event(t, ended, "the prompt to end on the cancel")
			if n := len(srv.Requests()); n != asked {
				t.Errorf("%d requests, want %d: none after the cancel", n, asked)
			}
			if o.StopReason != agent.StopCancelled {
				t.Errorf("outcome = %+v", o)
			}
			if got := s.History(); len(got) != len(h)+2 || got[len(got)-1].Text != "[cancelled by the user]" {
				t.Errorf("history grew by %d, want the user message and the cancelled answer", len(got)-len(h))
			}
			for i, rq := range srv.Requests() {
				if rq.Rejected != "" {
					t.Errorf("request %d rejected (%d): %s", i, rq.Status, rq.Rejected)
				}
			}
		})
	}
}

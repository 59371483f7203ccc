package agent

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/permission"
	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/tools"
)

func toolNames(specs []provider.ToolSpec) string {
	var names []string
	for _, s := range specs {
		names = append(names, s.Name)
	}
	return strings.Join(names, ",")
}

func builtinRegistry(t *testing.T) *tools.Registry {
	t.Helper()
	r := tools.NewRegistry()
	if err := tools.RegisterBuiltins(r); err != nil {
		t.Fatal(err)
	}
	return r
}

// countingApprover counts the questions and says yes.
type countingApprover struct{ asked []string }

func (a *countingApprover) Approve(_ context.Context, act permission.Action, _ bool) (permission.Decision, error) {
	a.asked = append(a.asked, act.Tool)
	return permission.AllowOnce, nil
}

// Each mode offers its tools (and only them) in the request, and refuses a
// call to any other tool with a result that says why.
func TestModesOfferAndEnforce(t *testing.T) {
	cases := []struct {
		mode    Mode
		offered string
		// status of a scripted write_file call
		writeStatus tools.Status
		asked       []string
	}{
		{ModeAsk, "read_file,glob,grep,skill", tools.StatusDenied, nil},
		{ModePlan, "read_file,glob,grep,todo_write,skill", tools.StatusDenied, nil},
		{ModeDefault, "read_file,glob,grep,write_file,edit_file,run_bash,todo_write,web_fetch,skill", tools.StatusCompleted, []string{"write_file"}},
		{ModeAutoEdit, "read_file,glob,grep,write_file,edit_file,run_bash,todo_write,web_fetch,skill", tools.StatusCompleted, nil},
	}
	for _, c := range cases {
		t.Run(string(c.mode), func(t *testing.T) {
			model := newFakeModel(
				answer(call("c1", "write_file", `{"path":"new.txt","content":"hi\n"}`), done(provider.StopToolUse, 10, 5)),
				answer(text("ok"), done(provider.StopEndTurn, 10, 5)),
			)
			ap := &countingApprover{}
			s := NewSession(Config{Provider: model, Model: "m", Tools: builtinRegistry(t), Env: testEnv(t),
				Gate: permission.NewPolicy(ap), Mode: c.mode}, "system")
			rec := &recorder{}
			o := s.Prompt(context.Background(), "make a file", rec)
			wantStop(t, o, StopEndTurn, 2)
			reqs := model.Requests()
			for i, r := range reqs {
				if got := toolNames(r.Tools); got != c.offered {
					t.Errorf("request %d offers %s, want %s", i, got, c.offered)
				}
			}
			res := rec.ofKind(EventToolResult)
			if len(res) != 1 || res[0].Status != c.writeStatus {
				t.Fatalf("tool results = %+v", res)
			}
			if c.writeStatus == tools.StatusDenied && !strings.Contains(res[0].Output, "write_file is not available in "+string(c.mode)+" mode") {
				t.Errorf("refusal = %q", res[0].Output)
			}
			if !slices.Equal(ap.asked, c.asked) {
				t.Errorf("asked about %v, want %v", ap.asked, c.asked)
			}
			user := reqs[0].Messages[1].Text
			if hinted := strings.Contains(user, "(Mode: "); hinted != (c.mode == ModeAsk || c.mode == ModePlan) {
				t.Errorf("user message %q: mode note present = %v", user, hinted)
			}
		})
	}
}

// Auto-edit never lets a command through without asking.
func TestAutoEditStillAsksForCommands(t *testing.T) {
	model := newFakeModel(
		answer(call("c1", "run_bash", `{"command":"echo hi"}`), done(provider.StopToolUse, 10, 5)),
		answer(text("ok"), done(provider.StopEndTurn, 10, 5)),
	)
	ap := &countingApprover{}
	s := NewSession(Config{Provider: model, Model: "m", Tools: builtinRegistry(t), Env: testEnv(t),
		Gate: permission.NewPolicy(ap), Mode: ModeAutoEdit}, "system")
	s.Prompt(context.Background(), "run it", nil)
	if !slices.Equal(ap.asked, []string{"run_bash"}) {
		t.Errorf("asked = %v", ap.asked)
	}
	// Back to default: edits ask again.
	if err := s.SetMode(ModeDefault); err != nil {
		t.Fatal(err)
	}
	model.answers = append(model.answers,
		answer(call("c2", "write_file", `{"path":"b.txt","content":"b\n"}`), done(provider.StopToolUse, 10, 5)),
		answer(text("ok"), done(provider.StopEndTurn, 10, 5)))
	s.Prompt(context.Background(), "write", nil)
	if !slices.Equal(ap.asked, []string{"run_bash", "write_file"}) {
		t.Errorf("asked = %v", ap.asked)
	}
}

func TestParseMode(t *testing.T) {
	for in, want := range map[string]Mode{"": ModeDefault, "ASK": ModeAsk, " plan ": ModePlan, "auto-edit": ModeAutoEdit} {
		if got, err := ParseMode(in); err != nil || got != want {
			t.Errorf("ParseMode(%q) = %q, %v", in, got, err)
		}
	}
	if _, err := ParseMode("yolo"); err == nil {
		t.Error("ParseMode(yolo) succeeded")
	}
}

// todo_write updates stream as plan events, in order, between the call's
// tool_call and tool_result, and the plan (and the mode) survive a resume.
func TestPlanEventsAndPersistence(t *testing.T) {
	store, err := NewStore(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	first := `{"items":[{"content":"read","status":"in_progress"},{"content":"fix","status":"pending"}]}`
	second := `{"items":[{"content":"read","status":"completed"},{"content":"fix","status":"in_progress"}]}`
	model := newFakeModel(
		answer(call("p1", "todo_write", first), done(provider.StopToolUse, 10, 5)),
		answer(call("p2", "todo_write", second), done(provider.StopToolUse, 10, 5)),
		answer(text("planned"), done(provider.StopEndTurn, 10, 5)),
	)
	cfg := Config{Provider: model, Model: "m", Tools: builtinRegistry(t), Env: testEnv(t),
		Gate: permission.NewPolicy(permission.DenyAll{}), Store: store, Mode: ModePlan}
	s := NewSession(cfg, "system")
	rec := &recorder{}
	wantStop(t, s.Prompt(context.Background(), "plan it", rec), StopEndTurn, 3)

	var kinds []EventKind
	for _, k := range rec.kinds() {
		if k == EventToolCall || k == EventToolResult || k == EventPlan {
			kinds = append(kinds, k)
		}
	}
	want := []EventKind{EventToolCall, EventPlan, EventToolResult, EventToolCall, EventPlan, EventToolResult}
	if !slices.Equal(kinds, want) {
		t.Fatalf("events = %v, want %v", kinds, want)
	}
	plans := rec.ofKind(EventPlan)
	if plans[0].Plan[0].Status != tools.TodoInProgress || plans[1].Plan[1].Status != tools.TodoInProgress {
		t.Errorf("plans = %+v", plans)
	}
	for _, r := range rec.ofKind(EventToolResult) {
		if r.Status != tools.StatusCompleted {
			t.Errorf("todo_write in plan mode with a deny-all approver: %+v", r)
		}
	}

	cfg.Mode = ModeDefault // a resumed session keeps its stored mode
	r, err := ResumeSession(cfg, s.ID())
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Plan(); len(got) != 2 || got[0] != (tools.TodoItem{Content: "read", Status: "completed"}) || got[1].Status != "in_progress" {
		t.Errorf("resumed plan = %+v", got)
	}
	if r.Mode() != ModePlan {
		t.Errorf("resumed mode = %s", r.Mode())
	}

	// Clear drops the history and the plan, for good.
	if err := r.Clear(context.Background()); err != nil {
		t.Fatal(err)
	}
	if h := r.History(); len(h) != 1 || h[0].Role != provider.RoleSystem {
		t.Errorf("history after clear = %+v", h)
	}
	again, err := ResumeSession(cfg, s.ID())
	if err != nil {
		t.Fatal(err)
	}
	if len(again.Plan()) != 0 || len(again.History()) != 1 {
		t.Errorf("after clear and resume: plan %v, %d messages", again.Plan(), len(again.History()))
	}
}

// SetModel takes effect at the next model call, even inside a running
// prompt's tool loop, and the new model sees the whole history.
func TestSetModelTakesEffectAtTheNextCall(t *testing.T) {
	first := newFakeModel(answer(reasoning("think"), call("c1", "echo", `{"text":"a"}`), done(provider.StopToolUse, 10, 5)))
	second := newFakeModel(answer(text("done"), done(provider.StopEndTurn, 10, 5)))
	var s *Session
	switching := funcTool{name: "echo", run: func(_ context.Context, a map[string]any) (string, error) {
		if err := s.SetModel(ModelSettings{Provider: second, Model: "claude-x", MaxTokens: 999}); err != nil {
			return "", err
		}
		return "echo", nil
	}}
	s = NewSession(Config{Provider: first, Model: "deepseek-flash", Tools: newRegistry(t, switching), Env: testEnv(t)}, "system")
	wantStop(t, s.Prompt(context.Background(), "go", nil), StopEndTurn, 2)
	reqs := second.Requests()
	if len(first.Requests()) != 1 || len(reqs) != 1 {
		t.Fatalf("requests: first %d, second %d", len(first.Requests()), len(reqs))
	}
	r := reqs[0]
	if r.Model != "claude-x" || r.MaxTokens != 999 {
		t.Errorf("second request model %q max %d", r.Model, r.MaxTokens)
	}
	if roles(r.Messages) != "system,user,assistant,tool" || r.Messages[2].Reasoning != "think" {
		t.Errorf("second model sees %s: %+v", roles(r.Messages), r.Messages)
	}
	if m := s.Model(); m.Model != "claude-x" {
		t.Errorf("Model() = %+v", m)
	}
	if s.current().budget != DefaultBudget("claude-x") {
		t.Errorf("budget %d did not follow the model", s.current().budget)
	}
	if err := s.SetModel(ModelSettings{Model: "x"}); err == nil {
		t.Error("SetModel without a provider succeeded")
	}
}

func TestKnownModelFacts(t *testing.T) {
	if w, ok := KnownContextWindow("claude-sonnet-4-5"); !ok || w != 200_000 {
		t.Errorf("claude window = %d %v", w, ok)
	}
	if w, ok := KnownContextWindow("deepseek-flash"); !ok || w != 1_000_000 {
		t.Errorf("deepseek window = %d %v", w, ok)
	}
	if _, ok := KnownContextWindow("qwen3-coder"); ok {
		t.Error("an unknown model has a known window")
	}
	if p, ok := KnownPricing("gpt-4.1"); !ok || p.OffPeak.Output != 8 {
		t.Errorf("gpt-4.1 pricing = %+v %v", p, ok)
	}
	if _, ok := KnownPricing("qwen3-coder"); ok {
		t.Error("an unknown model has a known price")
	}
}

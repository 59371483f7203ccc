package agent_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/zap"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/internal/await"
	"github.com/agent-lsp/agent-lsp/permission"
	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/provider/anthropic"
	"github.com/agent-lsp/agent-lsp/provider/openai"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
	"github.com/agent-lsp/agent-lsp/tools"
)

const subagentQuestion = "Where are the three parsers, and how do they differ? (parent-only context)"

// withTaskTool adds the task tool to a session's registry.
func withTaskTool(t testing.TB) func(*agent.Config) {
	return func(cfg *agent.Config) {
		if err := cfg.Tools.Add(agent.NewTaskTool(nil)); err != nil {
			t.Fatal(err)
		}
	}
}

// threeTasks is the parent's first answer: three subagents at once.
func threeTasks() providertest.Turn {
	return providertest.Turn{
		Text: "I'll investigate the three in parallel.",
		ToolCalls: []providertest.Call{
			{ID: "call_t1", Name: "task", Arguments: `{"description":"parser one","prompt":"investigate parser ONE"}`},
			{ID: "call_t2", Name: "task", Arguments: `{"description":"parser two","prompt":"investigate parser TWO"}`},
			{ID: "call_t3", Name: "task", Arguments: `{"description":"parser three","prompt":"investigate parser THREE"}`},
		},
		Usage: provider.Usage{PromptTokens: 1000, CompletionTokens: 50, CachedTokens: 800},
	}
}

// childPrompt is the task prompt a child's request carries, "" when the
// request is not a child's.
func childPrompt(body string) string {
	for _, p := range []string{"ONE", "TWO", "THREE"} {
		if strings.Contains(body, "investigate parser "+p) {
			return p
		}
	}
	return ""
}

func inBothDialects(t *testing.T, f func(t *testing.T, dialect string)) {
	for _, d := range []string{openai.Name, anthropic.Name} {
		t.Run(d, func(t *testing.T) { f(t, d) })
	}
}

// TestThreeSubagentsRunInParallelInTheirOwnContext is issue 28's
// acceptance line, on the agent: a turn with three task calls; each
// child's requests carry its own prompt and none of the parent's
// conversation, the three run at once (each child's answer takes a second;
// one after the other they would take three), their summaries come back as
// the task calls' results, their progress is marked with the task call's
// id, and the session's totals are the sum of every call's usage.
func TestThreeSubagentsRunInParallelInTheirOwnContext(t *testing.T) {
	inBothDialects(t, func(t *testing.T, dialect string) {
		const childDelay = time.Second
		child := func(summary string, u provider.Usage) providertest.Turn {
			return providertest.Turn{Text: summary, Usage: u,
				Fault: &providertest.Fault{Stall: childDelay, StallAfterFrames: 1}}
		}
		usages := []provider.Usage{
			threeTasks().Usage,
			{PromptTokens: 300, CompletionTokens: 20, CachedTokens: 0},
			{PromptTokens: 310, CompletionTokens: 21, CachedTokens: 100},
			{PromptTokens: 320, CompletionTokens: 22, CachedTokens: 200},
			{PromptTokens: 1200, CompletionTokens: 60, CachedTokens: 1000},
		}
		srv := providertest.NewServer(t, providertest.Script{
			threeTasks(),
			child("summary alpha", usages[1]),
			child("summary beta", usages[2]),
			child("summary gamma", usages[3]),
			{Text: "They differ in their grammars.", Usage: usages[4]},
		}, providertest.WithSeed(28))
		s := sessionWith(t, dialect, srv, javaProject(t), withTaskTool(t))

		var (
			mu     sync.Mutex
			events []agent.Event
		)
		start := time.Now()
		o := s.Prompt(t.Context(), subagentQuestion, agent.ListenerFunc(func(e agent.Event) {
			mu.Lock()
			events = append(events, e)
			mu.Unlock()
		}))
		elapsed := time.Since(start)
		if o.StopReason != agent.StopEndTurn || o.Err != nil {
			t.Fatalf("outcome %+v", o)
		}
		// Wall time: about one child's answer, not three.
		t.Logf("%s: three children of %v each took %v together", dialect, childDelay, elapsed)
		if elapsed >= 3*childDelay {
			t.Errorf("the three children took %v: they ran one after the other", elapsed)
		}

		// Each child's request: its own prompt, the read-only tools, nothing of the parent.
		reqs := srv.Requests()
		if len(reqs) != 5 {
			t.Fatalf("%d requests, want 5", len(reqs))
		}
		seen := map[string]bool{}
		for _, r := range reqs[1:4] {
			body := string(r.Body)
			p := childPrompt(body)
			if p == "" || seen[p] {
				t.Fatalf("child request holds no prompt of its own, or a repeated one: %s", body)
			}
			seen[p] = true
			for _, other := range []string{"ONE", "TWO", "THREE"} {
				if other != p && strings.Contains(body, "investigate parser "+other) {
					t.Errorf("child %s's request holds child %s's prompt", p, other)
				}
			}
			for _, parent := range []string{"parent-only context", "I'll investigate the three in parallel"} {
				if strings.Contains(body, parent) {
					t.Errorf("child %s's request holds the parent's %q", p, parent)
				}
			}
			if got := requestTools(t, r); got != "read_file,glob,grep" {
				t.Errorf("child %s's tools %s, want read_file,glob,grep", p, got)
			}
		}

		// The summaries are the task calls' results.
		var outputs []string
		for _, m := range s.History() {
			if m.Role == provider.RoleTool {
				outputs = append(outputs, m.Text)
			}
		}
		slices.Sort(outputs)
		if want := []string{"summary alpha", "summary beta", "summary gamma"}; !slices.Equal(outputs, want) {
			t.Errorf("tool results %q, want %q", outputs, want)
		}

		// Progress: every child event carries its task call's id, and a
		// child's round_end the session's running totals.
		mu.Lock()
		defer mu.Unlock()
		childRounds := 0
		for _, e := range events {
			if e.ParentToolCallID == "" {
				continue
			}
			if !slices.Contains([]string{"call_t1", "call_t2", "call_t3"}, e.ParentToolCallID) {
				t.Errorf("child event %s with parent %q", e.Kind, e.ParentToolCallID)
			}
			if e.Kind == agent.EventPromptEnd {
				t.Error("a child's prompt_end reached the parent's listener")
			}
			if e.Kind == agent.EventRoundEnd {
				childRounds++
				if e.Totals.Usage.PromptTokens <= e.Usage.PromptTokens {
					t.Errorf("a child's round_end carries totals %+v, not the session's", e.Totals.Usage)
				}
			}
		}
		if childRounds != 3 {
			t.Errorf("%d child round_end events, want 3", childRounds)
		}

		var sum provider.Usage
		for _, u := range usages {
			sum = sum.Add(u)
		}
		if got := s.Totals().Usage; got != sum {
			t.Errorf("totals %+v, want the sum %+v", got, sum)
		}
		if o.Usage != sum {
			t.Errorf("the prompt's usage %+v, want the sum %+v (its children's included)", o.Usage, sum)
		}
		h, _, ok := s.SubagentHistory("call_t2")
		if !ok || !slices.ContainsFunc(h, func(m provider.Message) bool {
			return m.Role == provider.RoleUser && m.Text == "investigate parser TWO"
		}) {
			t.Errorf("call_t2's transcript: %v %+v", ok, h)
		}
	})
}

// requestTools are the tool names a request offers, in order.
func requestTools(t *testing.T, r providertest.Received) string {
	t.Helper()
	var body struct {
		Tools []struct {
			Name     string `json:"name"`
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		} `json:"tools"`
	}
	if err := r.Decode(&body); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range body.Tools {
		names = append(names, tl.Name+tl.Function.Name)
	}
	return strings.Join(names, ",")
}

// askingApprover records what it is asked and says yes once.
type askingApprover struct {
	mu    sync.Mutex
	asked []permission.Action
}

func (a *askingApprover) Approve(_ context.Context, act permission.Action, _ bool) (permission.Decision, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.asked = append(a.asked, act)
	return permission.AllowOnce, nil
}

// TestSubagentEditAsksTheParentsApprover: a child given write_file asks
// the user through the parent's permission policy and approver before it
// writes, and its result names the file it touched.
func TestSubagentEditAsksTheParentsApprover(t *testing.T) {
	inBothDialects(t, func(t *testing.T, dialect string) {
		srv := providertest.NewServer(t, providertest.Script{
			{ToolCalls: []providertest.Call{{ID: "call_task", Name: "task",
				Arguments: `{"description":"write notes","prompt":"write NOTES.md","tools":["read_file","write_file"]}`}}},
			{ToolCalls: []providertest.Call{{ID: "call_w", Name: "write_file",
				Arguments: `{"path":"NOTES.md","content":"notes\n"}`}}},
			{Text: "Wrote NOTES.md."},
			{Text: "Done."},
		}, providertest.WithSeed(3))
		root := javaProject(t)
		approver := &askingApprover{}
		s := sessionWith(t, dialect, srv, root, func(cfg *agent.Config) {
			withTaskTool(t)(cfg)
			cfg.Gate = permission.NewPolicy(approver)
		})
		o := s.Prompt(t.Context(), "make notes", nil)
		if o.StopReason != agent.StopEndTurn {
			t.Fatalf("outcome %+v", o)
		}
		if len(approver.asked) != 1 || approver.asked[0].Tool != "write_file" || approver.asked[0].CallID != "call_w" ||
			approver.asked[0].ParentCallID != "call_task" {
			t.Fatalf("asked %+v, want one write_file question", approver.asked)
		}
		if data, err := os.ReadFile(filepath.Join(root, "NOTES.md")); err != nil || string(data) != "notes\n" {
			t.Errorf("NOTES.md: %q %v", data, err)
		}
		h := s.History()
		result := h[len(h)-2]
		if result.Role != provider.RoleTool || result.Text != "Wrote NOTES.md.\n\nFiles touched: NOTES.md" {
			t.Errorf("task result %+v", result)
		}
		// The child's edit is in the prompt's checkpoint: a rewind takes it back.
		cps := s.Checkpoints()
		if len(cps) != 1 || len(cps[0].Files) != 1 || cps[0].Files[0].Path != filepath.Join(root, "NOTES.md") || cps[0].Files[0].Existed {
			t.Fatalf("checkpoints %+v", cps)
		}
		if _, err := s.Rewind(t.Context(), cps[0].ID, agent.RewindOptions{RestoreFiles: true}); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(filepath.Join(root, "NOTES.md")); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("NOTES.md after the rewind: %v", err)
		}
	})
}

// TestSubagentToolsFollowTheParentsMode: in ask mode a child cannot be
// given write_file (the parent's mode does not offer it), and the task
// tool itself is never a child's.
func TestSubagentToolsFollowTheParentsMode(t *testing.T) {
	srv := providertest.NewServer(t, providertest.Script{
		{ToolCalls: []providertest.Call{
			{ID: "call_a", Name: "task", Arguments: `{"description":"d","prompt":"p","tools":["write_file"]}`},
			{ID: "call_b", Name: "task", Arguments: `{"description":"d","prompt":"p","tools":["task"]}`},
		}},
		{Text: "ok"},
	}, providertest.WithSeed(4))
	s := sessionWith(t, openai.Name, srv, javaProject(t), func(cfg *agent.Config) {
		withTaskTool(t)(cfg)
		cfg.Mode = agent.ModeAsk
	})
	s.Prompt(t.Context(), "look", nil)
	for _, m := range s.History() {
		if m.Role == provider.RoleTool && (!m.IsError || !strings.Contains(m.Text, "not available to a subagent")) {
			t.Errorf("result %+v, want a refusal", m)
		}
	}
	if n := len(srv.Requests()); n != 2 {
		t.Errorf("%d requests: a child started", n)
	}
}

// TestCancelStopsEverySubagent: three children wait on a model that never
// answers; the three requests are in flight at once (they run in
// parallel), and cancelling the parent ends all three, and the prompt.
func TestCancelStopsEverySubagent(t *testing.T) {
	inBothDialects(t, func(t *testing.T, dialect string) {
		stalled := providertest.Turn{Text: "never", Fault: &providertest.Fault{Stall: providertest.Forever}}
		srv := providertest.NewServer(t, providertest.Script{threeTasks(), stalled, stalled, stalled}, providertest.WithSeed(9))
		s := sessionWith(t, dialect, srv, javaProject(t), withTaskTool(t))
		ctx, cancel := context.WithCancelCause(t.Context())
		done := make(chan agent.Outcome, 1)
		go func() { done <- s.Prompt(ctx, subagentQuestion, nil) }()
		wctx, wcancel := context.WithTimeout(t.Context(), await.Long)
		defer wcancel()
		if err := srv.WaitRequests(wctx, 4); err != nil {
			t.Fatalf("the three children's requests were never in flight at once: %v", err)
		}
		start := time.Now()
		cancel(errors.New("user cancelled"))
		o := await.Event(t, done, "the prompt to end")
		took := time.Since(start)
		t.Logf("%s: cancel to the end of the prompt and its three children: %v", dialect, took)
		if took > time.Second {
			t.Errorf("cancel took %v", took)
		}
		if o.StopReason != agent.StopCancelled {
			t.Errorf("outcome %+v", o)
		}
		for _, m := range s.History() {
			if m.Role == provider.RoleTool && !strings.Contains(m.Text, "cancel") {
				t.Errorf("result %q of a cancelled child", m.Text)
			}
		}
	})
}

// TestSubagentTranscriptAndTotalsSurviveAResume: the child's conversation
// is stored with the session, and its usage in the session's totals.
func TestSubagentTranscriptAndTotalsSurviveAResume(t *testing.T) {
	srv := providertest.NewServer(t, providertest.Script{
		{ToolCalls: []providertest.Call{{ID: "call_s", Name: "task", Arguments: `{"description":"d","prompt":"count the files"}`}},
			Usage: provider.Usage{PromptTokens: 100, CompletionTokens: 10}},
		{Text: "three files", Usage: provider.Usage{PromptTokens: 50, CompletionTokens: 5}},
		{Text: "There are three.", Usage: provider.Usage{PromptTokens: 120, CompletionTokens: 7}},
	}, providertest.WithSeed(5))
	store, err := agent.NewStore(t.TempDir(), zap.NewNop())
	if err != nil {
		t.Fatal(err)
	}
	root := javaProject(t)
	s := sessionWith(t, openai.Name, srv, root, func(cfg *agent.Config) {
		withTaskTool(t)(cfg)
		cfg.Store = store
	})
	s.Prompt(t.Context(), "how many?", nil)
	want := s.Totals()
	if want.Usage.PromptTokens != 270 {
		t.Fatalf("totals %+v", want.Usage)
	}
	r, err := agent.ResumeSession(agent.Config{Provider: s.Model().Provider, Model: "deepseek-flash", Store: store,
		Tools: tools.NewRegistry(), Env: &tools.Env{}}, s.ID())
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Totals(); got.Usage != want.Usage {
		t.Errorf("resumed totals %+v, want %+v", got.Usage, want.Usage)
	}
	h, childTotals, ok := r.SubagentHistory("call_s")
	if !ok || len(h) != 3 || h[1].Text != "count the files" || h[2].Text != "three files" {
		t.Errorf("resumed transcript %v %+v", ok, h)
	}
	if childTotals.Usage != (provider.Usage{PromptTokens: 50, CompletionTokens: 5}) {
		t.Errorf("resumed child totals %+v", childTotals.Usage)
	}
}

// TestSubagentsPerPromptAreCapped: a prompt starts at most
// MaxSubagentsPerPrompt children; the call past it fails without a child.
func TestSubagentsPerPromptAreCapped(t *testing.T) {
	n := agent.MaxSubagentsPerPrompt + 1
	var calls []providertest.Call
	for i := range n {
		calls = append(calls, providertest.Call{ID: fmt.Sprintf("call_%02d", i), Name: "task",
			Arguments: fmt.Sprintf(`{"description":"d%d","prompt":"question %d"}`, i, i)})
	}
	script := providertest.Script{{ToolCalls: calls}}
	for range agent.MaxSubagentsPerPrompt {
		script = append(script, providertest.Turn{Text: "answer"})
	}
	script = append(script, providertest.Turn{Text: "done"})
	srv := providertest.NewServer(t, script, providertest.WithSeed(12))
	s := sessionWith(t, openai.Name, srv, javaProject(t), withTaskTool(t))
	if o := s.Prompt(t.Context(), "many", nil); o.StopReason != agent.StopEndTurn {
		t.Fatalf("outcome %+v", o)
	}
	refused := 0
	for _, m := range s.History() {
		if m.Role == provider.RoleTool && m.IsError {
			refused++
			if !strings.Contains(m.Text, "already started 12 subagents") {
				t.Errorf("refusal %q", m.Text)
			}
		}
	}
	if refused != 1 || len(srv.Requests()) != agent.MaxSubagentsPerPrompt+2 {
		t.Errorf("%d refused, %d requests", refused, len(srv.Requests()))
	}
}

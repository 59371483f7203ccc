package agent

import (
	"context"
	"fmt"
	"iter"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/provider"
)

// manyLines is a tool output worth eliding.
var manyLines = funcTool{name: "lines", run: func(context.Context, map[string]any) (string, error) {
	return strings.Repeat("a line of tool output that goes on for a while\n", 40), nil
}}

// toolPrompt scripts a prompt of two rounds: a call to lines, then text.
func toolPrompt(i int) [][]provider.Event {
	return [][]provider.Event{
		answer(reasoning("r"), call(fmt.Sprintf("c%d", i), "lines", `{}`), done(provider.StopToolUse, 0, 1)),
		answer(text(fmt.Sprintf("answer %d", i)), done(provider.StopEndTurn, 0, 1)),
	}
}

func TestKeepFromNeverSplitsACallFromItsResults(t *testing.T) {
	h := []provider.Message{
		{Role: provider.RoleSystem, Text: sys},
		{Role: provider.RoleUser, Text: "q"},
		{Role: provider.RoleAssistant, ToolCalls: []provider.ToolCall{{ID: "a"}, {ID: "b"}, {ID: "c"}}},
		{Role: provider.RoleTool, ToolCallID: "a"},
		{Role: provider.RoleTool, ToolCallID: "b"},
		{Role: provider.RoleTool, ToolCallID: "c"},
		{Role: provider.RoleAssistant, Text: "done"},
	}
	for keep, want := range map[int]int{1: 6, 2: 2, 3: 2, 4: 2, 5: 2, 6: 1, 7: 1, 100: 1} {
		if got := keepFrom(h, 1, keep); got != want {
			t.Errorf("keepFrom(keep=%d) = %d, want %d", keep, got, want)
		}
	}
}

func TestElideKeepsShortOutputs(t *testing.T) {
	in := []provider.Message{
		{Role: provider.RoleTool, ToolCallID: "a", Text: "short"},
		{Role: provider.RoleTool, ToolCallID: "b", Text: strings.Repeat("x\n", 30) + "x"},
		{Role: provider.RoleAssistant, Text: strings.Repeat("long text ", 50)},
	}
	out, n := elide(in)
	if n != 1 || out[0].Text != "short" || out[1].Text != "[output elided: 31 lines]" || out[2].Text != in[2].Text {
		t.Errorf("elide = %d %+v", n, out)
	}
	if in[1].Text == out[1].Text {
		t.Error("elide changed its input")
	}
	if again, n := elide(out); n != 0 || again[1].Text != out[1].Text {
		t.Error("an elided output must stay as it is")
	}
}

// TestBudgetCompactsBeforeTheRequest: with a small budget, the request that
// would pass it goes out compacted: old outputs elided, the older history
// summarised into a system message right after the system prompt, the
// kept messages verbatim, and the summary asked for without tools.
func TestBudgetCompactsBeforeTheRequest(t *testing.T) {
	var answers [][]provider.Event
	for i := range 5 {
		answers = append(answers, toolPrompt(i)...)
	}
	var summaryAnswers [][]provider.Event
	for range 10 {
		summaryAnswers = append(summaryAnswers, answer(text("SUMMARY"), done(provider.StopEndTurn, 50, 10)))
	}
	summaries := newFakeModel(summaryAnswers...)
	model := &splitModel{rounds: newFakeModel(answers...), summaries: summaries}
	s := NewSession(Config{Provider: model, Model: "m", Tools: newRegistry(t, manyLines), Env: testEnv(t), Budget: 1500, Keep: 3}, sys)
	var compacted []Event
	for i := range 5 {
		rec := &recorder{}
		o := s.Prompt(t.Context(), fmt.Sprintf("prompt %d: %s", i, strings.Repeat("and some more words ", 40)), rec)
		wantStop(t, o, StopEndTurn, 2)
		compacted = append(compacted, rec.ofKind(EventCompacted)...)
	}
	if n := len(model.rounds.Requests()); n != 10 {
		t.Fatalf("%d round calls, want 10", n)
	}
	sreqs := summaries.Requests()
	if len(sreqs) == 0 || len(compacted) < len(sreqs) {
		t.Fatalf("%d summary calls, %d compacted events", len(sreqs), len(compacted))
	}
	summaryReq := &sreqs[0]
	if m := summaryReq.Messages; len(m) != 2 || m[0].Text != sys || m[1].Role != provider.RoleUser ||
		!strings.Contains(m[1].Text, "[user]\nprompt 0") || summaryReq.Thinking.Enabled {
		t.Errorf("summary request = %+v", summaryReq)
	}
	last := compacted[len(compacted)-1]
	if last.AfterTokens >= last.BeforeTokens || last.AfterTokens > 1500 || last.Usage.PromptTokens != 50 {
		t.Errorf("compacted event = %+v", last)
	}
	h := s.History()
	assertValidHistory(t, h)
	if !h[1].Summary || h[1].Role != provider.RoleSystem || !strings.HasSuffix(h[1].Text, "SUMMARY") {
		t.Errorf("history[1] = %+v, want the summary", h[1])
	}
	for _, m := range h[2:] {
		if m.Summary {
			t.Errorf("a second summary: %+v", m)
		}
	}
	if tot := s.Totals(); tot.Calls != 10+len(sreqs) || tot.Usage.PromptTokens != 50*len(sreqs) {
		t.Errorf("totals = %+v", tot)
	}
}

// TestCalibrationDrivesTheBudget: the provider's own count of the prompt
// decides, not the estimate: a prompt the estimator thinks small but the
// provider counted as large is compacted; the same history with no usage
// reported is not.
func TestCalibrationDrivesTheBudget(t *testing.T) {
	for _, tc := range []struct {
		name        string
		reported    int
		wantCompact bool
	}{
		{"provider counts more than the budget", 5000, true},
		{"provider reports no usage", 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			model := newFakeModel(
				answer(text("one"), done(provider.StopEndTurn, tc.reported, 1)),
				answer(text("two"), done(provider.StopEndTurn, tc.reported, 1)),
				answer(text("SUMMARY"), done(provider.StopEndTurn, 10, 1)),
				answer(text("three"), done(provider.StopEndTurn, 10, 1)),
			)
			s := NewSession(Config{Provider: model, Model: "m", Budget: 4000, Keep: 2}, sys)
			rec := &recorder{}
			for _, p := range []string{"a", "b", "c"} {
				s.Prompt(t.Context(), p, rec)
			}
			if got := len(rec.ofKind(EventCompacted)) > 0; got != tc.wantCompact {
				t.Errorf("compacted = %v, want %v (requests %d)", got, tc.wantCompact, len(model.Requests()))
			}
		})
	}
}

func TestManualCompact(t *testing.T) {
	model := newFakeModel(append(toolPrompt(0), answer(text("SUMMARY"), done(provider.StopEndTurn, 1, 1)))...)
	s := NewSession(Config{Provider: model, Model: "m", Tools: newRegistry(t, manyLines), Env: testEnv(t), Keep: 1}, sys)
	s.Prompt(t.Context(), "go", nil)
	rec := &recorder{}
	c, err := s.Compact(t.Context(), rec)
	if err != nil {
		t.Fatal(err)
	}
	if c.Summarised != 3 || c.Elided != 1 || c.AfterTokens >= c.BeforeTokens {
		t.Errorf("compaction = %+v", c)
	}
	if ev := rec.ofKind(EventCompacted); len(ev) != 1 || ev[0].Round != 0 || ev[0].BeforeTokens != c.BeforeTokens {
		t.Errorf("events = %+v", rec.events)
	}
	if got := roles(s.History()); got != "system,system,assistant" {
		t.Errorf("roles = %s", got)
	}
	// Nothing older than the kept messages but the summary: nothing to do.
	again, err := s.Compact(t.Context(), rec)
	if err != nil || again.Summarised != 0 || len(model.Requests()) != 3 {
		t.Errorf("second compaction = %+v, %v (%d calls)", again, err, len(model.Requests()))
	}
}

func TestFailedSummaryKeepsTheElision(t *testing.T) {
	model := newFakeModel(append(toolPrompt(0), answer(failed(fmt.Errorf("HTTP 500"))))...)
	s := NewSession(Config{Provider: model, Model: "m", Tools: newRegistry(t, manyLines), Env: testEnv(t), Keep: 1}, sys)
	s.Prompt(t.Context(), "go", nil)
	c, err := s.Compact(t.Context(), nil)
	if err == nil || !strings.Contains(err.Error(), "HTTP 500") {
		t.Errorf("err = %v", err)
	}
	h := s.History()
	if c.Elided != 1 || c.Summarised != 0 || !strings.HasPrefix(h[3].Text, "[output elided:") {
		t.Errorf("compaction = %+v, tool result %q", c, h[3].Text)
	}
}

// splitModel answers requests without tools (compaction summaries) from
// summaries and the rest from rounds, so a script need not know when the
// budget forces a summary.
type splitModel struct{ rounds, summaries *fakeModel }

func (m *splitModel) Stream(ctx context.Context, req provider.Request) iter.Seq[provider.Event] {
	if req.Tools == nil {
		return m.summaries.Stream(ctx, req)
	}
	return m.rounds.Stream(ctx, req)
}

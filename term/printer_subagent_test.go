package term

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/tools"
)

// A subagent's progress is shown indented under the task call, labelled
// with its number: its calls and results as they come, its text once its
// round ended (two children's answers never interleave mid-line), its
// errors; the prompt's usage line counts its model calls.
func TestPrinterNestsSubagents(t *testing.T) {
	var answer, progress strings.Builder
	p := newPrinter(&answer, &progress, false)
	child := func(parent string, e agent.Event) agent.Event { e.ParentToolCallID = parent; return e }
	for _, e := range []agent.Event{
		{Kind: agent.EventToolCall, ToolCallID: "t1", ToolName: "task", Arguments: json.RawMessage(`{"description":"parser one","prompt":"p"}`)},
		{Kind: agent.EventToolCall, ToolCallID: "t2", ToolName: "task", Arguments: json.RawMessage(`{"description":"parser two","prompt":"p"}`)},
		child("t1", agent.Event{Kind: agent.EventText, Text: "Looking at "}),
		child("t2", agent.Event{Kind: agent.EventToolCall, ToolCallID: "c1", ToolName: "read_file", Arguments: json.RawMessage(`{"path":"b.go"}`)}),
		child("t1", agent.Event{Kind: agent.EventText, Text: "a.go\nit parses."}),
		child("t2", agent.Event{Kind: agent.EventToolResult, ToolCallID: "c1", ToolName: "read_file", Status: tools.StatusCompleted, Output: "package b"}),
		child("t1", agent.Event{Kind: agent.EventRoundEnd, Usage: provider.Usage{PromptTokens: 10}, Cost: 0.5}),
		child("t2", agent.Event{Kind: agent.EventError, Err: errors.New("model API answered 500")}),
		{Kind: agent.EventToolResult, ToolCallID: "t1", ToolName: "task", Status: tools.StatusCompleted, Output: "it parses"},
		{Kind: agent.EventRoundEnd, Usage: provider.Usage{PromptTokens: 20}, Cost: 0.25},
		{Kind: agent.EventPromptEnd, Usage: provider.Usage{PromptTokens: 30}, StopReason: agent.StopEndTurn},
	} {
		p.OnEvent(e)
	}
	want := strings.Join([]string{
		"⚙ task: parser one",
		"⚙ task: parser two",
		"    ↳ [parser two] ⚙ read_file b.go",
		"      ✓ read_file: package b",
		"    ↳ [parser one] Looking at a.go",
		"                   it parses.",
		"    ↳ [parser two] error: model API answered 500",
		"  ✓ task: it parses",
		"[tokens: 30 in, 0 out · cost $0.7500 · session $0.0000]",
		"",
	}, "\n")
	if got := progress.String(); got != want {
		t.Errorf("progress:\n%s\nwant:\n%s", got, want)
	}
	if answer.Len() != 0 {
		t.Errorf("a child's text reached the answer: %q", answer.String())
	}
}

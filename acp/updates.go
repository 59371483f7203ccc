package acp

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	sdk "github.com/coder/acp-go-sdk"
	"go.uber.org/zap"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/permission"
	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/tools"
)

// kindOf is the ACP tool kind of one of our tools; MCP tools are "other".
func kindOf(tool string) sdk.ToolKind {
	switch tool {
	case "read_file":
		return sdk.ToolKindRead
	case "write_file", "edit_file":
		return sdk.ToolKindEdit
	case "glob", "grep":
		return sdk.ToolKindSearch
	case "run_bash":
		return sdk.ToolKindExecute
	case tools.TodoWriteName:
		return sdk.ToolKindThink
	}
	return sdk.ToolKindOther
}

// callArgs are the argument fields a title and locations are made of.
type callArgs struct {
	Path    string `json:"path"`
	Pattern string `json:"pattern"`
	Command string `json:"command"`
	Offset  int    `json:"offset"`
	// Description is a task call's (agent.TaskTool).
	Description string `json:"description"`
}

// describeCall is a tool call's title and locations, from its arguments.
func describeCall(ws *tools.Workspace, name string, raw json.RawMessage) (string, []sdk.ToolCallLocation) {
	var a callArgs
	_ = json.Unmarshal(raw, &a) // a call with arguments we cannot read is titled by its name
	var locs []sdk.ToolCallLocation
	if a.Path != "" {
		p := a.Path
		if !filepath.IsAbs(p) && ws != nil {
			p = filepath.Join(ws.Roots()[0], p)
		}
		loc := sdk.ToolCallLocation{Path: p}
		if a.Offset > 0 {
			loc.Line = sdk.Ptr(a.Offset)
		}
		locs = append(locs, loc)
	}
	// A title is one line the client shows as it is: every hidden
	// character of the model's arguments is written visibly, and a long
	// command loses its middle, never its tail.
	switch {
	case name == agent.TaskToolName && a.Description != "":
		return permission.VisibleLine("task: "+a.Description, titleRunes), locs
	case a.Command != "":
		return "run: " + permission.VisibleLine(strings.TrimSpace(a.Command), titleRunes), locs
	case a.Pattern != "" && a.Path != "":
		return permission.VisibleLine(fmt.Sprintf("%s %q in %s", name, a.Pattern, a.Path), 0), locs
	case a.Pattern != "":
		return permission.VisibleLine(fmt.Sprintf("%s %q", name, a.Pattern), 0), locs
	case a.Path != "":
		return permission.VisibleLine(name+" "+a.Path, 0), locs
	}
	return permission.VisibleLine(name, 0), locs
}

// titleRunes bounds a command in a tool call's title, as run_bash's own
// summary is bounded.
const titleRunes = 160

// rawInput is the call's arguments as JSON data for the client.
func rawInput(raw json.RawMessage) any {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	return v
}

// planEntries is the plan as ACP entries.
func planEntries(items []tools.TodoItem) []sdk.PlanEntry {
	out := make([]sdk.PlanEntry, 0, len(items))
	for _, it := range items {
		st := sdk.PlanEntryStatusPending
		switch it.Status {
		case "in_progress":
			st = sdk.PlanEntryStatusInProgress
		case "completed":
			st = sdk.PlanEntryStatusCompleted
		}
		out = append(out, sdk.PlanEntry{Content: it.Content, Status: st, Priority: sdk.PlanEntryPriorityMedium})
	}
	return out
}

// stream turns one prompt's agent events into session/update
// notifications. Events arrive serialized (agent.Listener's promise).
type stream struct {
	s   *session
	ctx context.Context // the connection's: a notification outlives a cancelled prompt

	children map[string]*childProgress // subagents by task call id (updates_subagent.go)
}

var _ agent.Listener = (*stream)(nil)

// OnEvent implements agent.Listener.
func (st *stream) OnEvent(e agent.Event) {
	s := st.s
	if e.ParentToolCallID != "" {
		st.onChildEvent(e)
		return
	}
	switch e.Kind {
	case agent.EventText:
		s.send(st.ctx, sdk.UpdateAgentMessageText(e.Text))
	case agent.EventReasoning:
		s.send(st.ctx, sdk.UpdateAgentThoughtText(e.Text))
	case agent.EventToolCall:
		title, locs := describeCall(s.ws, e.ToolName, e.Arguments)
		if e.ToolName == "run_bash" && s.term != nil {
			title += " (" + s.term.where(s.term.Containment().FS && !asksUnsandboxed(e.Arguments)) + ")"
		}
		s.send(st.ctx, sdk.StartToolCall(sdk.ToolCallId(e.ToolCallID), title,
			sdk.WithStartKind(kindOf(e.ToolName)), sdk.WithStartStatus(sdk.ToolCallStatusInProgress),
			sdk.WithStartLocations(locs), sdk.WithStartRawInput(rawInput(e.Arguments))))
	case agent.EventToolResult:
		s.send(st.ctx, s.resultUpdate(e.ToolCallID, e.Status, e.Output))
	case agent.EventPlan:
		s.send(st.ctx, sdk.UpdatePlan(planEntries(e.Plan)...))
	case agent.EventSteer: // the user's message entered the history, as a replay shows one
		s.send(st.ctx, sdk.UpdateUserMessageText(e.Text))
	case agent.EventRoundEnd, agent.EventCompacted:
		s.send(st.ctx, s.usageUpdate(e.Usage, e.Totals))
	case agent.EventRetry: // ACP has no update for it; the prompt's end tells the outcome
		s.log.Debug("retrying the model call", zap.String("session", string(s.id)),
			zap.Int("attempt", e.Retry.Attempt), zap.Int("max", e.Retry.Max), zap.Error(e.Err))
	case agent.EventError:
		s.log.Debug("model call failed", zap.String("session", string(s.id)), zap.Error(e.Err))
	}
}

// resultUpdate is a finished call's tool_call_update: its diffs (edits),
// its terminal (commands run in the client's terminal), and its output.
func (s *session) resultUpdate(callID string, status tools.Status, output string) sdk.SessionUpdate {
	var content []sdk.ToolCallContent
	if s.diffs != nil {
		content = append(content, s.diffs.take(callID)...)
	}
	if id, ok := s.terms.take(callID); ok {
		content = append(content, sdk.ToolTerminalRef(id))
	}
	if output != "" {
		content = append(content, sdk.ToolContent(sdk.TextBlock(output)))
	}
	st := sdk.ToolCallStatusCompleted
	if status != tools.StatusCompleted {
		st = sdk.ToolCallStatusFailed
	}
	return sdk.UpdateToolCall(sdk.ToolCallId(callID), sdk.WithUpdateStatus(st), sdk.WithUpdateContent(content),
		sdk.WithUpdateRawOutput(map[string]any{"status": string(status)}))
}

// usageUpdate says how full the context is after a model call (the call's
// prompt and answer) and what the session has cost so far. The cost is
// left out when a call went to a model without a price: the client shows
// no cost rather than a wrong one.
func (s *session) usageUpdate(u provider.Usage, t agent.Totals) sdk.SessionUpdate {
	used := u.PromptTokens + u.CompletionTokens
	upd := &sdk.SessionUsageUpdate{SessionUpdate: "usage_update", Used: used, Size: s.contextSize()}
	if t.CostKnown() {
		upd.Cost = &sdk.Cost{Amount: t.Cost, Currency: "USD"}
	}
	return sdk.SessionUpdate{UsageUpdate: upd}
}

package acp

import (
	"strings"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agent-lsp/agent-lsp/agent"
)

// metaParentToolCall is the _meta key that marks a subagent's tool call
// with the id of the task call that started it (docs/acp.md).
const metaParentToolCall = "agent-lsp/parentToolCallId"

// childProgress is what a task call's content shows of its subagent while
// it runs: the calls it made and its last round's text.
type childProgress struct {
	steps []string
	text  strings.Builder // the running round's text
	last  string          // the last finished round's text
}

func (c *childProgress) render() string {
	var b strings.Builder
	for _, s := range c.steps {
		b.WriteString("→ ")
		b.WriteString(s)
		b.WriteByte('\n')
	}
	if c.last != "" {
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(c.last)
	}
	return b.String()
}

// onChildEvent shows a subagent's event: its tool calls as tool calls of
// their own (marked in _meta with the task call's id, so a permission
// request for one names a call the client knows), and its progress as the
// task call's content, replaced at each of its calls and rounds (the task
// call's result replaces it with the summary). Its usage is in the
// session's totals, which the parent's next usage_update carries.
func (st *stream) onChildEvent(e agent.Event) {
	s := st.s
	if st.children == nil {
		st.children = map[string]*childProgress{}
	}
	c := st.children[e.ParentToolCallID]
	if c == nil {
		c = &childProgress{}
		st.children[e.ParentToolCallID] = c
	}
	meta := map[string]any{metaParentToolCall: e.ParentToolCallID}
	switch e.Kind {
	case agent.EventText:
		c.text.WriteString(e.Text)
		return
	case agent.EventToolCall:
		title, locs := describeCall(s.ws, e.ToolName, e.Arguments)
		c.steps = append(c.steps, title)
		u := sdk.StartToolCall(sdk.ToolCallId(e.ToolCallID), title,
			sdk.WithStartKind(kindOf(e.ToolName)), sdk.WithStartStatus(sdk.ToolCallStatusInProgress),
			sdk.WithStartLocations(locs), sdk.WithStartRawInput(rawInput(e.Arguments)))
		u.ToolCall.Meta = meta
		s.send(st.ctx, u)
	case agent.EventToolResult:
		u := s.resultUpdate(e.ToolCallID, e.Status, e.Output)
		u.ToolCallUpdate.Meta = meta
		s.send(st.ctx, u)
		return
	case agent.EventRoundEnd:
		if t := strings.TrimSpace(c.text.String()); t != "" {
			c.last = t
		}
		c.text.Reset()
	default:
		return
	}
	s.send(st.ctx, sdk.UpdateToolCall(sdk.ToolCallId(e.ParentToolCallID),
		sdk.WithUpdateContent([]sdk.ToolCallContent{sdk.ToolContent(sdk.TextBlock(c.render()))})))
}

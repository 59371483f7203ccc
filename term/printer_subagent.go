package term

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/permission"
)

// childIndent starts every line of a subagent's progress: nested under
// its task call.
const childIndent = "    "

// childLines is a subagent's label and the text of its running round:
// held until the round ends, so that children running at once do not
// interleave their answers mid-line.
type childLines struct {
	label string // its task call's description, else its number in the prompt
	text  strings.Builder
}

// labelRunes bounds a child's label.
const labelRunes = 30

// subagentEventLocked takes what the printer shows of subagents: a task
// call names its child (by its description); a child's event is shown
// nested (childEventLocked) and reports true.
func (p *printer) subagentEventLocked(e agent.Event) bool {
	if p.children == nil {
		p.children = map[string]*childLines{}
	}
	if e.ParentToolCallID == "" {
		if e.Kind == agent.EventToolCall && e.ToolName == agent.TaskToolName {
			var a struct{ Description string }
			_ = json.Unmarshal(e.Arguments, &a) // unreadable: the child is numbered
			if a.Description != "" {
				p.children[e.ToolCallID] = &childLines{label: permission.VisibleLine(a.Description, labelRunes)}
			}
		}
		return false
	}
	c := p.children[e.ParentToolCallID]
	if c == nil {
		c = &childLines{label: fmt.Sprint(len(p.children) + 1)}
		p.children[e.ParentToolCallID] = c
	}
	p.childEventLocked(c, e)
	return true
}

// childEventLocked shows a subagent's event indented under its task call,
// labelled: its tool calls and results as the parent's are shown, its
// text (dimmed) when its round ends, its errors and retries. Its model
// calls count in the prompt's usage line.
func (p *printer) childEventLocked(c *childLines, e agent.Event) {
	p.flushMarkdown()
	if p.reasoning {
		p.reasoning = false
		p.freshLine(p.progress)
	}
	label := fmt.Sprintf("%s↳ [%s] ", childIndent, c.label)
	under := strings.Repeat(" ", utf8.RuneCountInString(label)) // a continued line starts under the text
	switch e.Kind {
	case agent.EventText:
		c.text.WriteString(e.Text)
	case agent.EventToolCall:
		p.freshLine(p.answer)
		p.write(p.progress, label+"⚙ "+permission.VisibleLine(toolCallText(e.ToolName, e.Arguments), 0)+"\n")
	case agent.EventToolResult:
		p.freshLine(p.progress)
		p.write(p.progress, childIndent+p.toolResultLine(e)+"\n")
	case agent.EventRoundEnd, agent.EventCompacted:
		p.addCall(e)
		text := strings.TrimSpace(c.text.String())
		c.text.Reset()
		if text == "" {
			return
		}
		p.freshLine(p.answer)
		for i, line := range strings.Split(permission.VisibleOutput(text), "\n") {
			if i == 0 {
				p.write(p.progress, label+p.style(ansiDim, line)+"\n")
				continue
			}
			p.write(p.progress, under+p.style(ansiDim, line)+"\n")
		}
	case agent.EventRetry:
		p.freshLine(p.answer)
		p.write(p.progress, label+p.style(ansiDim, fmt.Sprintf("retrying (%d/%d): %s", e.Retry.Attempt, e.Retry.Max,
			permission.VisibleOutput(errText(e.Err))))+"\n")
	case agent.EventError:
		p.freshLine(p.answer)
		p.write(p.progress, label+p.style(ansiRed, "error: "+permission.VisibleOutput(errText(e.Err)))+"\n")
	}
}

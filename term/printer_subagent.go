package term

import (
	"fmt"
	"strings"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/permission"
)

// childIndent starts every line of a subagent's progress: nested under
// its task call.
const childIndent = "    "

// childLines is a subagent's text of its running round: held until the
// round ends, so that children running at once do not interleave their
// answers mid-line.
type childLines struct {
	n    int // the child's number in the prompt, from 1, its label
	text strings.Builder
}

// childEventLocked shows a subagent's event indented under its task call,
// labelled with the child's number: its tool calls and results as the
// parent's are shown, its text (dimmed) when its round ends, its errors
// and retries. Its model calls count in the prompt's usage line.
func (p *printer) childEventLocked(e agent.Event) {
	if p.children == nil {
		p.children = map[string]*childLines{}
	}
	c := p.children[e.ParentToolCallID]
	if c == nil {
		c = &childLines{n: len(p.children) + 1}
		p.children[e.ParentToolCallID] = c
	}
	p.flushMarkdown()
	if p.reasoning {
		p.reasoning = false
		p.freshLine(p.progress)
	}
	label := fmt.Sprintf("%s↳ [%d] ", childIndent, c.n)
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
			p.write(p.progress, childIndent+"  "+p.style(ansiDim, line)+"\n")
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

package term

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/permission"
	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/tools"
)

const (
	ansiDim   = "\x1b[2m"
	ansiBold  = "\x1b[1m"
	ansiRed   = "\x1b[31m"
	ansiGreen = "\x1b[32m"
	ansiReset = "\x1b[0m"
)

// printer shows a prompt's events in the terminal: the answer streams to
// answer, everything else (reasoning dimmed, tool calls, round lines,
// control updates, command answers) to progress. What it prints comes
// from the model, tools, MCP servers and files; all of it goes through
// permission.VisibleOutput (an escape sequence, a carriage return, a bidi
// control or a zero-width character is shown, not obeyed), so the only
// escape sequences that reach the terminal are our own colours (style). The agent serializes
// OnEvent calls; mu keeps a control update arriving from elsewhere from
// cutting into a line.
type printer struct {
	answer, progress io.Writer
	color            bool
	markdown         *markdownStream // renders the answer; nil prints it as it streams

	mu sync.Mutex // guards the fields below and the writes
	// midLine is true when the last thing written did not end a line, so
	// the next block starts on a fresh one.
	midLine   bool
	reasoning bool // inside a run of reasoning deltas
	// children are the running prompt's subagents by task call id
	// (printer_subagent.go).
	children map[string]*childLines
	// The prompt's model calls so far, for its usage line: their cost
	// (known while every call's is) and the session's totals after them.
	rounds    int
	cost      float64
	costKnown bool
	totals    agent.Totals
	sawTotals bool
}

func newPrinter(answer, progress io.Writer, color bool) *printer {
	return &printer{answer: answer, progress: progress, color: color}
}

func (p *printer) style(code, s string) string {
	if !p.color {
		return s
	}
	return code + s + ansiReset
}

func (p *printer) freshLine(w io.Writer) {
	if p.midLine {
		fmt.Fprintln(w)
		p.midLine = false
	}
}

func (p *printer) write(w io.Writer, s string) {
	if s == "" {
		return
	}
	io.WriteString(w, s)
	p.midLine = !strings.HasSuffix(s, "\n")
}

func (p *printer) OnEvent(e agent.Event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.subagentEventLocked(e) { // printer_subagent.go
		return
	}
	if e.Kind != agent.EventText {
		p.flushMarkdown()
	}
	if e.Kind != agent.EventReasoning && p.reasoning {
		p.reasoning = false
		p.freshLine(p.progress)
	}
	switch e.Kind {
	case agent.EventText:
		p.writeAnswer(permission.VisibleOutput(e.Text))
	case agent.EventReasoning:
		if !p.reasoning {
			p.freshLine(p.progress)
			p.reasoning = true
		}
		p.write(p.progress, p.style(ansiDim, permission.VisibleOutput(e.Text)))
	case agent.EventToolCall:
		p.freshLine(p.answer)
		p.write(p.progress, "⚙ "+permission.VisibleLine(toolCallText(e.ToolName, e.Arguments), 0)+"\n")
	case agent.EventToolResult:
		p.freshLine(p.progress)
		p.write(p.progress, p.toolResultLine(e)+"\n")
	case agent.EventRoundEnd: // told once, at the prompt's end
		p.addCall(e)
	case agent.EventRetry:
		p.freshLine(p.answer)
		line := fmt.Sprintf("retrying (%d/%d) in %s: %s", e.Retry.Attempt, e.Retry.Max,
			e.Retry.Delay.Round(100*time.Millisecond), permission.VisibleOutput(errText(e.Err)))
		p.write(p.progress, p.style(ansiDim, line)+"\n")
	case agent.EventCompacted:
		p.addCall(e)
		p.freshLine(p.answer)
		line := fmt.Sprintf("[compacted %d → %d tokens]", e.BeforeTokens, e.AfterTokens)
		p.write(p.progress, p.style(ansiDim, line)+"\n")
	case agent.EventSteer: // a line typed with /steer entered the running turn (turn.go)
		p.freshLine(p.answer)
		p.write(p.progress, p.style(ansiDim, "↳ steer: "+permission.VisibleOutput(e.Text))+"\n")
	case agent.EventError:
		p.freshLine(p.answer)
		p.write(p.progress, p.style(ansiRed, "error: "+permission.VisibleOutput(errText(e.Err)))+"\n")
	case agent.EventPromptEnd:
		p.children = nil // the next prompt's subagents are numbered from 1
		p.freshLine(p.answer)
		if line := p.usageLine(e.Usage); line != "" {
			p.write(p.progress, p.style(ansiDim, line)+"\n")
		}
		if e.StopReason == agent.StopCancelled {
			p.write(p.progress, p.style(ansiDim, "[cancelled]")+"\n")
		} else if e.Notice != "" { // a limit: one line that says which
			p.write(p.progress, p.style(ansiRed, "["+e.Notice+"]")+"\n")
		} else if e.StopReason == agent.StopMaxTokens {
			p.write(p.progress, p.style(ansiDim, "[stopped: "+string(e.StopReason)+"]")+"\n")
		}
	}
}

// line shows s on the progress output, on a line of its own.
func (p *printer) line(s string) { p.styledLine("", s) }

// dim shows s dimmed on a line of its own.
func (p *printer) dim(s string) { p.styledLine(ansiDim, s) }

// note shows what went wrong beside a prompt (a mention not attached).
func (p *printer) note(s string) { p.styledLine(ansiRed, s) }

// styledLine shows s, made visible, in the colour code ("" for none) on a
// line of its own.
func (p *printer) styledLine(code, s string) {
	s = permission.VisibleOutput(s)
	if code != "" {
		s = p.style(code, s)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.flushMarkdown()
	p.freshLine(p.answer)
	p.write(p.progress, s+"\n")
}

// plan shows the plan todo_write made, one item a line.
func (p *printer) plan(items []tools.TodoItem) {
	if len(items) == 0 {
		p.dim("[plan cleared]")
		return
	}
	var b strings.Builder
	b.WriteString("plan:")
	for _, it := range items {
		mark := "[ ]"
		switch it.Status {
		case "completed":
			mark = "[x]"
		case "in_progress":
			mark = "[>]"
		}
		fmt.Fprintf(&b, "\n  %s %s", mark, firstLine(it.Content))
	}
	p.line(b.String())
}

func (p *printer) toolResultLine(e agent.Event) string {
	first, lines := summarize(permission.VisibleOutput(e.Output))
	name := permission.VisibleLine(e.ToolName, 0)
	more := ""
	if lines > 1 {
		more = " (+" + plural(lines-1, "line") + ")"
	}
	switch e.Status {
	case tools.StatusCompleted:
		return fmt.Sprintf("  %s %s: %s%s", p.style(ansiGreen, "✓"), name, first, more)
	case tools.StatusDenied:
		return fmt.Sprintf("  %s %s denied: %s", p.style(ansiRed, "⊘"), name, first)
	default:
		return fmt.Sprintf("  %s %s failed: %s%s", p.style(ansiRed, "✗"), name, first, more)
	}
}

// summarize returns the first non-empty line (cut to 120 runes) and the
// number of lines.
func summarize(s string) (string, int) {
	s = strings.TrimRight(s, "\n")
	lines := strings.Count(s, "\n") + 1
	first := s
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		first = s[:i]
	}
	if r := []rune(first); len(r) > 120 {
		first = string(r[:120]) + "…"
	}
	return first, lines
}

func compactArgs(raw json.RawMessage) string {
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		buf.Reset()
		buf.Write(raw)
	}
	s := buf.String()
	if r := []rune(s); len(r) > 200 {
		s = string(r[:200]) + "…"
	}
	return s
}

// errText is an error on one line: a model API's refusal as its status
// and the message its JSON body carries, not the body's escaped JSON.
func errText(err error) string {
	if err == nil {
		return "unknown error"
	}
	var h *provider.HTTPError
	if errors.As(err, &h) {
		text := fmt.Sprintf("the model API answered %d", h.Status)
		if st := http.StatusText(h.Status); st != "" {
			text += " " + st
		} else if h.Status == 529 {
			text += " Overloaded"
		}
		if h.Attempts > 1 {
			text += fmt.Sprintf(" (after %d attempts)", h.Attempts)
		}
		if msg := apiMessage(h.Body); msg != "" {
			text += ": " + msg
		}
		return text
	}
	return strings.ReplaceAll(err.Error(), "\n", " ")
}

// apiMessage is the message of an API error body ({"error":{"message"}}
// in both dialects, {"message"} elsewhere), else the body as it came.
func apiMessage(body string) string {
	var b struct {
		Message string `json:"message"`
		Error   struct {
			Message string `json:"message"`
			Type    string `json:"type"`
		} `json:"error"`
	}
	if json.Unmarshal([]byte(body), &b) != nil {
		return body
	}
	switch {
	case b.Error.Message != "":
		return b.Error.Message
	case b.Message != "":
		return b.Message
	case b.Error.Type != "":
		return b.Error.Type
	}
	return body
}

// dollars is a cost for the usage line; "unknown" for a model without a
// price, never $0 (a free model's calls are priced, at $0). Small costs
// keep the digits that make them non-zero.
func dollars(cost float64, known bool) string {
	if !known {
		return "unknown"
	}
	if cost != 0 && cost < 0.01 {
		return fmt.Sprintf("$%.6f", cost)
	}
	return fmt.Sprintf("$%.4f", cost)
}

// addCall counts a model call (a round, or a compaction's summary) into
// the prompt's usage line.
func (p *printer) addCall(e agent.Event) {
	if p.rounds == 0 {
		p.cost, p.costKnown = 0, true
	}
	p.rounds++
	p.cost += e.Cost
	p.costKnown = p.costKnown && !e.CostUnknown
	p.totals, p.sawTotals = e.Totals, true
}

// usageLine is the prompt's one line of usage ("" when it made no model
// call): its tokens summed over its calls, its cost and the session's.
// It resets the count for the next prompt.
func (p *printer) usageLine(u provider.Usage) string {
	if p.rounds == 0 {
		return ""
	}
	p.rounds = 0
	line := fmt.Sprintf("[tokens: %d in", u.PromptTokens)
	if u.CachedTokens > 0 {
		line += fmt.Sprintf(" (%d cached)", u.CachedTokens)
	}
	line += fmt.Sprintf(", %d out · cost %s", u.CompletionTokens, dollars(p.cost, p.costKnown))
	if p.sawTotals {
		line += " · session " + dollars(p.totals.Cost, p.totals.CostKnown())
	}
	return line + "]"
}

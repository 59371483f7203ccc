package term

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/tools"
)

// hostileText is what a model, a tool's output or a file may hold to act
// on the terminal rather than be read, each with how the chat must show it.
var hostileText = []struct {
	name, text, shown string
}{
	{"carriage return", "all good\rrm -rf ~ ran", `all good\rrm -rf ~ ran`},
	{"screen clear", "hi\x1b[2J\x1b[H", `hi\x1b[2J\x1b[H`},
	{"OSC 52 clipboard write", "copy \x1b]52;c;cm0gLXJmIH4K\a done", `copy \x1b]52;c;cm0gLXJmIH4K\a done`},
	{"OSC 52 ended by ST", "x\x1b]52;c;Y3VybA==\x1b\\y", `x\x1b]52;c;Y3VybA==\x1b\y`},
	{"DCS", "a\x1bP1$r0m\x1b\\b", `a\x1bP1$r0m\x1b\b`},
	{"C1 CSI", "a\u009B2Jb", `a<U+009B>2Jb`},
	{"bell and backspace", "ab\b\b\a", `ab\b\b\a`},
	{"bidi override", "return \u202Eerror", `return <U+202E>error`},
	{"zero-width space", "curl evil\u200B.example", `curl evil<U+200B>.example`},
}

// ourColours are the only escape sequences the chat writes: its colours
// and rendered markdown's styles.
var ourColours = regexp.MustCompile(`\x1b\[(?:0|1|2|3|4|9|31|32|33|35|36)m`)

// rawHidden finds a character the terminal would obey or hide, outside
// our own colours.
func rawHidden(out string) int {
	return strings.IndexFunc(ourColours.ReplaceAllString(out, ""), func(r rune) bool {
		return unicode.In(r, unicode.Cc, unicode.Cf, unicode.Zl, unicode.Zp) && r != '\n' && r != '\t'
	})
}

// The chat prints the model's answer and reasoning, tool calls, tool
// output, errors and control lines with every control sequence, bidi
// control and zero-width character shown, not obeyed; its own colours
// stay.
func TestPrinterShowsControlSequences(t *testing.T) {
	for _, rendered := range []bool{false, true} {
		for _, tc := range hostileText {
			t.Run(fmt.Sprintf("%s/markdown=%v", tc.name, rendered), func(t *testing.T) {
				showsControlSequences(t, tc.text, tc.shown, rendered)
			})
		}
	}
}

// showsControlSequences runs hostile text through every kind of line the
// printer shows, with the answer rendered as markdown or as it streams.
func showsControlSequences(t *testing.T, text, shown string, rendered bool) {
	var answer, progress strings.Builder
	p := newPrinter(&answer, &progress, true)
	if rendered {
		p.renderMarkdown(func() int { return 80 })
	}
	args, _ := json.Marshal(map[string]string{"command": "echo " + text})
	p.OnEvent(agent.Event{Kind: agent.EventReasoning, Text: "thinking " + text})
	p.OnEvent(agent.Event{Kind: agent.EventText, Text: "answer " + text})
	p.OnEvent(agent.Event{Kind: agent.EventToolCall, ToolCallID: "c1", ToolName: "run_bash", Arguments: args})
	p.OnEvent(agent.Event{Kind: agent.EventToolResult, ToolCallID: "c1", ToolName: "run_bash", Status: tools.StatusCompleted, Output: "output " + text + "\nmore"})
	p.OnEvent(agent.Event{Kind: agent.EventError, Err: errors.New("failed: " + text)})
	p.OnEvent(agent.Event{Kind: agent.EventPromptEnd})
	p.note("note " + text)
	p.line("line " + text)
	p.plan([]tools.TodoItem{{Content: "step " + text, Status: "pending"}})
	for what, out := range map[string]string{"answer": answer.String(), "progress": progress.String()} {
		if i := rawHidden(out); i >= 0 {
			t.Errorf("%s: a raw %q reaches the terminal:\n%q", what, []rune(ourColours.ReplaceAllString(out, "")[i:])[0], out)
		}
	}
	if !strings.Contains(answer.String(), "answer "+shown) {
		t.Errorf("answer %q does not show %q", answer.String(), shown)
	}
	for _, want := range []string{"thinking ", "echo ", "output ", "failed: ", "note ", "line ", "step "} {
		if !strings.Contains(progress.String(), want+shown) {
			t.Errorf("progress does not show %q:\n%s", want+shown, progress.String())
		}
	}
	if !strings.Contains(progress.String(), ansiGreen+"✓"+ansiReset) || !strings.Contains(progress.String(), ansiRed+"note ") {
		t.Errorf("our colours are gone:\n%q", progress.String())
	}
}

// A long command's tool call line shows its tail.
func TestPrinterToolCallShowsTheTail(t *testing.T) {
	cmd := "echo " + strings.Repeat("padding ", 60) + "&& git push --force origin main\n"
	args, _ := json.Marshal(map[string]string{"command": "cd x\n" + cmd})
	line := toolCallText("run_bash", args)
	if !strings.HasSuffix(line, "&& git push --force origin main") || !strings.Contains(line, "characters cut]") {
		t.Errorf("tool call line %q hides the command's tail", line)
	}
}

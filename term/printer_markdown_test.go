package term

import (
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/agent"
)

const markdownAnswer = "# Plan\n\nFirst paragraph with **bold** and `code`.\n\n" +
	"- apple\n- banana\n\n" +
	"```java\nint a = 1;\n\nint b = 2;\n```\n" +
	"> quoted\n\n" +
	"| name | size |\n|---|--:|\n| x | 10 |\n\n" +
	"See [the docs](https://example.com/docs). Trailing words"

// streamAnswer feeds answer to a rendering printer in chunks of size bytes
// and returns what the terminal showed after each chunk, then at the end.
func streamAnswer(answer string, size int) (steps []string, final string) {
	var out strings.Builder
	p := newPrinter(&out, &out, true)
	p.renderMarkdown(func() int { return 60 })
	for i := 0; i < len(answer); i += size {
		p.OnEvent(agent.Event{Kind: agent.EventText, Text: answer[i:min(i+size, len(answer))]})
		steps = append(steps, out.String())
	}
	p.OnEvent(agent.Event{Kind: agent.EventPromptEnd, StopReason: agent.StopEndTurn})
	return steps, out.String()
}

// The answer streams block by block: a paragraph shows once the blank line
// after it arrives, a code block (blank lines and all) once its fence
// closes, the rest at the end; nothing is shown twice.
func TestMarkdownAnswerStreamsBlockByBlock(t *testing.T) {
	for _, size := range []int{1, 7, 64} {
		steps, final := streamAnswer(markdownAnswer, size)
		shownAt := func(s string) int { // the bytes of the answer received when s was first shown
			for i, step := range steps {
				if strings.Contains(step, s) {
					return min((i+1)*size, len(markdownAnswer))
				}
			}
			return -1
		}
		byChunk := func(n int) int { return min((n+size-1)/size*size, len(markdownAnswer)) } // the end of the chunk that brings byte n
		if at, want := shownAt("First paragraph"), byChunk(strings.Index(markdownAnswer, "- apple")); at < 0 || at > want {
			t.Errorf("chunks of %d: the first paragraph was shown at byte %d, want once its blank line came (by %d)", size, at, want)
		}
		if at, after := shownAt("int a = 1;"), strings.Index(markdownAnswer, "```\n>")+3; at < after {
			t.Errorf("chunks of %d: the code block was shown at byte %d, before its fence closed at %d", size, at, after)
		}
		if at := shownAt("int a = 1;"); at < 0 || at > byChunk(strings.Index(markdownAnswer, "```\n>")+4) {
			t.Errorf("chunks of %d: the code block was shown at byte %d, not when its fence closed", size, at)
		}
		if shownAt("Trailing words") >= 0 {
			t.Errorf("chunks of %d: the unfinished last paragraph was shown before the answer ended", size)
		}
		for _, once := range []string{"Plan", "First paragraph", "apple", "int a = 1;", "int b = 2;", "quoted", "10", "Trailing words"} {
			if n := strings.Count(final, once); n != 1 {
				t.Errorf("chunks of %d: %q shown %d times:\n%s", size, once, n, final)
			}
		}
		if _, whole := streamAnswer(markdownAnswer, len(markdownAnswer)); stripStyles(final) != stripStyles(whole) {
			t.Errorf("chunks of %d show another text than the whole answer:\n%s\n---\n%s", size, stripStyles(final), stripStyles(whole))
		}
	}
}

func stripStyles(s string) string { return ourColours.ReplaceAllString(s, "") }

// Headings, emphasis, lists, quotes, tables and code are set off by
// styles, bullets and rules, not shown as typed.
func TestMarkdownRendersElements(t *testing.T) {
	_, out := streamAnswer(markdownAnswer, len(markdownAnswer))
	plain := stripStyles(out)
	for _, want := range []string{
		ansiBold + ansiMagenta + ansiUnderline + "Plan" + ansiReset, // the heading, without its #
		ansiBold + "bold" + ansiReset,
		ansiYellow + "code" + ansiReset,
		ansiYellow + "int a = 1;" + ansiReset,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("rendered answer lacks %q:\n%q", want, out)
		}
	}
	for _, want := range []string{"• apple\n• banana\n", "```java\nint a = 1;\n\nint b = 2;\n```\n", "│ quoted\n",
		"name │ size\n", "─────┼─────\n", "x    │   10\n", "the docs (https://example.com/docs)"} {
		if !strings.Contains(plain, want) {
			t.Errorf("rendered answer lacks %q:\n%s", want, plain)
		}
	}
	for _, typed := range []string{"# Plan", "**bold**", "`code`", "- apple", "|---", "[the docs]"} {
		if strings.Contains(plain, typed) {
			t.Errorf("rendered answer shows %q as typed:\n%s", typed, plain)
		}
	}
}

// What markdown itself could turn into a control character (a numeric or
// named character reference, in text, a link or a code span) is shown, not
// obeyed, and a link is never a hyperlink escape (OSC 8): its address is
// shown beside its text.
func TestMarkdownShowsReferencesAndLinksVisibly(t *testing.T) {
	for _, tc := range []struct{ name, text, shown string }{
		{"numeric reference to ESC", "clear &#27;[2J now", `clear \x1b[2J now`},
		{"hex reference to CSI", "a &#x9b;2J b", `a <U+009B>2J b`},
		{"reference to a bidi override", "return &#x202E;error", `return <U+202E>error`},
		{"reference in a link address", "[ok](http://x&#27;]52;c;Zm9v&#7;/)", `ok (http://x\x1b]52;c;Zm9v\a/)`},
		{"zero width by name", "curl evil&ZeroWidthSpace;.example", `curl evil<U+200B>.example`},
		{"hyperlink lookalike", "[click](https://evil.example/a)", "click (https://evil.example/a)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, out := streamAnswer(tc.text+"\n\n```sh\nprintf '\x1b]8;;https://evil.example\x1b\\\\'\n```\n", 5)
			if i := rawHidden(out); i >= 0 {
				t.Fatalf("a raw %q reaches the terminal:\n%q", []rune(stripStyles(out)[i:])[0], out)
			}
			if !strings.Contains(stripStyles(out), tc.shown) {
				t.Errorf("%q is not shown as %q:\n%q", tc.text, tc.shown, out)
			}
			if strings.Contains(out, "\x1b]8") {
				t.Errorf("the answer holds a hyperlink escape:\n%q", out)
			}
		})
	}
}

// Without rendering the printer shows the answer exactly as it came.
func TestPlainAnswerIsShownAsTyped(t *testing.T) {
	var out strings.Builder
	p := newPrinter(&out, &out, true)
	for _, c := range strings.SplitAfter(markdownAnswer, " ") {
		p.OnEvent(agent.Event{Kind: agent.EventText, Text: c})
	}
	p.OnEvent(agent.Event{Kind: agent.EventPromptEnd, StopReason: agent.StopEndTurn})
	if out.String() != markdownAnswer+"\n" {
		t.Errorf("plain answer changed:\n%q", out.String())
	}
}

// A table is a header row and a delimiter row of as many cells, with or
// without outer pipes; an escaped pipe stays in its cell; anything else is
// a paragraph.
func TestMarkdownTables(t *testing.T) {
	for _, tc := range []struct{ name, source, want string }{
		{"outer pipes", "| a | b |\n|:-:|---|\n| 1 | 2 |\n", "a │ b\n──┼──\n1 │ 2\n"},
		{"no outer pipes", "a | b\n--|--:\nx | 10\n", "a │  b\n──┼───\nx │ 10\n"},
		{"escaped pipe", "| cmd | note |\n|---|---|\n| `a \\| b` | **or** |\n", "cmd   │ note\n──────┼─────\na | b │ or\n"},
		{"short row", "| a | b |\n|---|---|\n| 1 |\n", "a │ b\n──┼──\n1 │\n"},
		{"delimiter of another width", "| a | b |\n|---|\n| 1 | 2 |\n", "| a | b | |---| | 1 | 2 |\n"},
		{"no delimiter row", "a | b\nc | d\n", "a | b c | d\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := stripStyles(renderMarkdown(tc.source, 80))
			if strings.Join(strings.Fields(got), " ") != strings.Join(strings.Fields(tc.want), " ") {
				t.Errorf("rendered\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

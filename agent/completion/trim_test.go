package completion

import (
	"strings"
	"testing"
)

func TestWindowsCutAtLineBoundaries(t *testing.T) {
	text := "line one\nline two\nline three\nCURSOR here\nafter one\nafter two\n"
	cursor := strings.Index(text, "here")
	// 4 tokens = 16 bytes: "ne three\nCURSOR " would cut a line.
	if got := prefixWindow(text, cursor, 4); got != "CURSOR " {
		t.Errorf("prefix = %q", got)
	}
	if got := prefixWindow(text, cursor, 100); got != text[:cursor] {
		t.Errorf("whole prefix = %q", got)
	}
	if got := suffixWindow(text, cursor, 3); got != "here\n" {
		t.Errorf("suffix = %q", got)
	}
	long := strings.Repeat("é", 40) // no line break in reach: cut on a character
	if got := prefixWindow(long, len(long), 3); got != strings.Repeat("é", 6) {
		t.Errorf("prefix of a long line = %q", got)
	}
}

func TestFinishTrimsWhatTheSuffixHolds(t *testing.T) {
	for _, c := range []struct {
		name, prefix, suffix, answer, insert string
		overlap                              int
	}{
		{"closing paren at the cursor", "fmt.Println(", ")\n", `"hi")`, `"hi")`, 1},
		{"quote and paren", `fmt.Println("`, "\")\n", `hi")`, `hi")`, 2},
		{"nothing of the rest", "x := f(", ")\n", "a, b", "a, b", 0},
		{"rest with trailing blanks all repeated", "f(", ")  \n", "a)", "a)", 3},
		{"no word split", "x := nam", "e + 1\n", "e", "", 0},
		{"only the rest repeated", "f(", ")\n", ")", "", 0},
		{"suffix block repeated", "func f() int {\n", "}\n\nfunc g() {}\n", "\treturn 1\n}\n\nfunc g() {}\n", "\treturn 1", 0},
		{"closing brace repeated", "if x {\n\t", "\n}\n", "y()\n}", "y()", 0},
		{"nested brace kept", "func f() {\n", "\n}\n", "\tif x {\n\t\ty()\n\t}\n}", "\tif x {\n\t\ty()\n\t}", 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			sh := shapeOf(c.prefix, c.suffix)
			kept, _ := sh.cut(c.answer, true, false, 8)
			insert, overlap := sh.finish(kept)
			if insert != c.insert || overlap != c.overlap {
				t.Errorf("finish = %q, %d; want %q, %d", insert, overlap, c.insert, c.overlap)
			}
		})
	}
}

func TestCutStopsAtABoundary(t *testing.T) {
	for _, c := range []struct {
		name, prefix, suffix, answer string
		final, early                 bool
		kept                         string
		enough                       bool
	}{
		{"mid-line keeps the line", "x := f(", ")\n", "a)\ny := 2\n", false, false, "a)", true},
		{"mid-line waits for the line", "x := f(", ")\n", "a", false, false, "a", false},
		{"dedent ends the block", "func f() {\n\t", "\n}\n", "a()\n\tb()\n}\n\nfunc g() {", false, false, "a()\n\tb()", true},
		{"automatic: first usable line", "func f() {\n\t", "\n}\n", "a()\n\tb()\n", false, true, "a()", true},
		{"automatic: a block opener is not usable alone", "", "", "func g() {\n\treturn\n", false, true, "func g() {\n\treturn\n", false},
		{"automatic: the block closes", "", "", "func g() {\n\treturn\n}\n\nfunc h() {", false, true, "func g() {\n\treturn\n}", true},
		{"max lines", "", "", "a\nb\nc\nd\n", false, false, "a\nb\nc", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			kept, enough := shapeOf(c.prefix, c.suffix).cut(c.answer, c.final, c.early, 3)
			if kept != c.kept || enough != c.enough {
				t.Errorf("cut = %q, %v; want %q, %v", kept, enough, c.kept, c.enough)
			}
		})
	}
}

func TestExtraQuotesSameLanguageBuffers(t *testing.T) {
	others := []Buffer{
		{Path: "notes.md", Language: "markdown", Text: "# notes\n"},
		{Path: "util.go", Language: "go", Text: "package main\n\nfunc helper() int { return 1 }\n"},
		{Path: "more.go", Language: "go", Text: "package main\n"},
	}
	got := extra("go", others, 6) // 24 bytes: util.go's first two lines only
	if len(got) != 1 || got[0].Path != "util.go" || got[0].Text != "package main\n\n" {
		t.Errorf("extra = %+v", got)
	}
	if got := extra("go", others, 64); len(got) != 2 || got[1].Path != "more.go" {
		t.Errorf("extra with room = %+v", got)
	}
	if got := extra("go", others, 0); len(got) != 0 {
		t.Errorf("extra without room = %+v", got)
	}
}

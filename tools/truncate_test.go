package tools

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

var truncNote = regexp.MustCompile(`\n\[… (\d+) bytes \((\d+) lines\) cut from the middle of (\d+) bytes …\]\n`)

func TestTruncateKeepsShortText(t *testing.T) {
	for _, s := range []string{"", "short", strings.Repeat("x", 100)} {
		if got := Truncate(s, 100); got != s {
			t.Errorf("Truncate(%d bytes, 100) changed the text", len(s))
		}
	}
	if got := Truncate("abc", 0); got != "abc" {
		t.Errorf("max 0 should mean no limit, got %q", got)
	}
}

func TestTruncateHeadTailAndNote(t *testing.T) {
	var lines []string
	for i := 1; i <= 5000; i++ {
		lines = append(lines, fmt.Sprintf("line %04d: %s", i, strings.Repeat("é", i%7)))
	}
	inputs := map[string]string{
		"lines":         strings.Join(lines, "\n"),
		"one long line": strings.Repeat("日本語", 20000),
		"ascii blob":    strings.Repeat("abcdefghij", 10000),
	}
	for name, s := range inputs {
		for _, max := range []int{200, 1000, 32 << 10} {
			t.Run(fmt.Sprintf("%s/%d", name, max), func(t *testing.T) {
				got := Truncate(s, max)
				if len(got) > max {
					t.Fatalf("len %d > max %d", len(got), max)
				}
				if !utf8.ValidString(got) {
					t.Fatal("cut inside a UTF-8 sequence")
				}
				loc := truncNote.FindStringSubmatchIndex(got)
				if loc == nil {
					t.Fatalf("no truncation note in %q", got)
				}
				head, tail := got[:loc[0]], got[loc[1]:]
				if !strings.HasPrefix(s, head) || !strings.HasSuffix(s, tail) {
					t.Fatal("head or tail is not from the original")
				}
				if len(head) == 0 || len(tail) == 0 {
					t.Fatalf("head %d bytes, tail %d bytes: both should be kept", len(head), len(tail))
				}
				cut, _ := strconv.Atoi(got[loc[2]:loc[3]])
				cutLines, _ := strconv.Atoi(got[loc[4]:loc[5]])
				total, _ := strconv.Atoi(got[loc[6]:loc[7]])
				if total != len(s) || cut != len(s)-len(head)-len(tail) {
					t.Fatalf("note says %d cut of %d; really %d of %d", cut, total, len(s)-len(head)-len(tail), len(s))
				}
				if want := strings.Count(s[len(head):len(s)-len(tail)], "\n"); cutLines != want {
					t.Fatalf("note says %d lines cut, really %d", cutLines, want)
				}
				if name == "lines" && max >= 1000 && (!strings.HasSuffix(head, "\n") || !strings.HasPrefix(tail, "line ")) {
					t.Fatalf("cut not on line boundaries: head ends %q, tail starts %q", head[len(head)-10:], tail[:10])
				}
			})
		}
	}
}

func TestTruncateTinyMax(t *testing.T) {
	got := Truncate(strings.Repeat("x", 1000), 10)
	if !truncNote.MatchString(got) || strings.Contains(got, "xx") {
		t.Fatalf("a max smaller than the note should give the note alone, got %q", got)
	}
}

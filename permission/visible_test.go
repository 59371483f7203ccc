package permission

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agent-lsp/agent-lsp/internal/fixturetest"
)

// hostile are the characters that make what a person reads differ from
// what runs, each with how every approval text must show it (the table
// the terminal's approver is held to as well).
var hostile = func() []struct{ name, in, want string } {
	var out []struct{ name, in, want string }
	for _, h := range fixturetest.HiddenCharacters() {
		out = append(out, struct{ name, in, want string }{h.Name, h.In, h.Want})
	}
	return out
}()

func TestVisibleShowsEveryHiddenCharacter(t *testing.T) {
	for _, tc := range hostile {
		t.Run(tc.name, func(t *testing.T) {
			if got := Visible(tc.in); got != tc.want {
				t.Errorf("Visible(%q) = %q, want %q", tc.in, got, tc.want)
			}
			if got := VisibleLine(tc.in, 0); got != tc.want {
				t.Errorf("VisibleLine(%q) = %q, want %q", tc.in, got, tc.want)
			}
			if got := Visible(tc.want); got != tc.want {
				t.Errorf("Visible is not idempotent: %q → %q", tc.want, got)
			}
		})
	}
}

func TestVisibleKeepsLinesAndText(t *testing.T) {
	for _, s := range []string{"go test ./...\ngo vet ./...", "a\tb", "grep -n 'é' naïve.go", "printf '\\r'", "日本語 ✓ → …", ""} {
		if got := Visible(s); got != s {
			t.Errorf("Visible(%q) = %q, want it unchanged", s, got)
		}
	}
	if got, want := VisibleLine("a\nb\tc", 0), `a\nb\tc`; got != want {
		t.Errorf("VisibleLine = %q, want %q", got, want)
	}
}

func TestVisibleOutputKeepsProseButNoControl(t *testing.T) {
	for _, tc := range hostile {
		if tc.name == "no-break space" {
			continue
		}
		if got := VisibleOutput(tc.in); got != tc.want {
			t.Errorf("%s: VisibleOutput(%q) = %q, want %q", tc.name, tc.in, got, tc.want)
		}
	}
	for _, s := range []string{"déjà\u00A0vu", "❤\uFE0F", "line 1\nline 2\n\tindented"} {
		if got := VisibleOutput(s); got != s {
			t.Errorf("VisibleOutput(%q) = %q, want it unchanged", s, got)
		}
	}
}

// A long line is cut in its middle: the tail, where a dangerous command
// hides, is always shown, and the cut says how much it stood for.
func TestVisibleLineCutsTheMiddle(t *testing.T) {
	cmd := "echo " + strings.Repeat("a", 500) + " && rm -rf ~/\u202E"
	got := VisibleLine(cmd, 120)
	if !strings.HasSuffix(got, "&& rm -rf ~/<U+202E>") {
		t.Errorf("the tail is not shown: %q", got)
	}
	if !strings.HasPrefix(got, "echo aaa") {
		t.Errorf("the head is not shown: %q", got)
	}
	if n := utf8.RuneCountInString(got); n > 120 {
		t.Errorf("%d runes, want at most 120: %q", n, got)
	}
	if !strings.Contains(got, "characters cut]") {
		t.Fatalf("the cut is not said: %q", got)
	}
	// The cut never splits an escape, and its count is of the original's characters.
	cutRe := regexp.MustCompile(`^(?:<U\+202E>)*…\[(\d+) characters cut\]…(?:<U\+202E>)*$`)
	for _, width := range []int{20, 30, 31, 32, 33, 34, 35, 40} {
		got := VisibleLine(strings.Repeat("\u202E", 20), width)
		m := cutRe.FindStringSubmatch(got)
		if m == nil {
			t.Fatalf("width %d: an escape is split or the cut unsaid: %q", width, got)
		}
		cut, _ := strconv.Atoi(m[1])
		if kept := strings.Count(got, "<U+202E>"); kept+cut != 20 {
			t.Errorf("width %d: %d kept + %d cut, want 20: %q", width, kept, cut, got)
		}
	}
}

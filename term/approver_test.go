package term

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/agent-lsp/agent-lsp/internal/fixturetest"
	"github.com/agent-lsp/agent-lsp/permission"
)

func TestApproverAnswers(t *testing.T) {
	cases := []struct {
		name   string
		input  string
		offer  bool
		want   permission.Decision
		output []string // substrings expected in the transcript
		absent []string
	}{
		{"y allows once", "y\n", true, permission.AllowOnce, []string{"[y] allow  [a] allow for this session  [n] deny > "}, nil},
		{"yes allows once", "YES\n", false, permission.AllowOnce, []string{"[y] allow  [n] deny > "}, []string{"[a]"}},
		{"a allows for the session", "a\n", true, permission.AllowSession, nil, nil},
		{"a not offered asks again", "a\ny\n", false, permission.AllowOnce, []string{"not offered for HIGH risk"}, []string{"[a]"}},
		{"n denies", "n\n", true, permission.Deny, nil, nil},
		{"no denies", "no\n", true, permission.Deny, nil, nil},
		{"empty line denies", "\n", true, permission.Deny, nil, nil},
		{"garbage then y", "maybe\ny\n", true, permission.AllowOnce, []string{"please answer y or n (or a)"}, nil},
		{"three bad answers deny", "x\nx\nx\ny\n", true, permission.Deny, []string{"no valid answer: denied"}, nil},
		{"EOF denies", "", true, permission.Deny, []string{"no answer: denied"}, nil},
		{"last line without newline", "y", true, permission.AllowOnce, nil, nil},
		{"CRLF line", "a\r\n", true, permission.AllowSession, nil, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var out strings.Builder
			ap := NewApprover(strings.NewReader(tc.input), &out, false)
			risk := permission.Medium
			if !tc.offer {
				risk = permission.High
			}
			d, err := ap.Approve(context.Background(), bash("go test", risk), tc.offer)
			if err != nil {
				t.Fatal(err)
			}
			if d != tc.want {
				t.Fatalf("decision %v, want %v; transcript:\n%s", d, tc.want, out.String())
			}
			for _, s := range tc.output {
				if !strings.Contains(out.String(), s) {
					t.Errorf("transcript lacks %q:\n%s", s, out.String())
				}
			}
			for _, s := range tc.absent {
				if strings.Contains(out.String(), s) {
					t.Errorf("transcript has %q:\n%s", s, out.String())
				}
			}
		})
	}
}

func TestApproverBox(t *testing.T) {
	var diff strings.Builder
	diff.WriteString("--- a/main.go\n+++ b/main.go\n@@ -1,3 +1,50 @@\n")
	for i := range 60 {
		fmt.Fprintf(&diff, "+line %d\n", i)
	}
	a := permission.Action{
		Tool: "edit_file", Summary: "edit main.go", Risk: permission.High,
		Reasons: []string{"writes to ~/.bashrc (startup file)"},
		Diff:    diff.String(),
	}
	var out strings.Builder
	ap := NewApprover(strings.NewReader("n\n"), &out, true)
	if _, err := ap.Approve(context.Background(), a, false); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{
		"permission: edit_file", "edit main.go",
		"risk: " + ansiRed + "HIGH" + ansiReset,
		"• writes to ~/.bashrc (startup file)",
		ansiGreen + "+line 0" + ansiReset,
		ansiCyan + "@@ -1,3 +1,50 @@" + ansiReset,
		"… 23 more diff lines not shown",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("box lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "+line 37") {
		t.Errorf("diff not capped at %d lines", maxDiffLines)
	}

	out.Reset()
	plain := NewApprover(strings.NewReader("n\n"), &out, false)
	if _, err := plain.Approve(context.Background(), a, false); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "\x1b") {
		t.Errorf("colour escapes without Color:\n%q", out.String())
	}
}

func TestApproverEscapesControlCharacters(t *testing.T) {
	var out strings.Builder
	ap := NewApprover(strings.NewReader("n\n"), &out, false)
	a := bash("x", permission.Medium)
	a.Summary = "run: ls\x1b[2K\x1b[1A harmless"
	if _, err := ap.Approve(context.Background(), a, true); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "\x1b") || !strings.Contains(out.String(), `\x1b[2K`) {
		t.Fatalf("control characters not escaped: %q", out.String())
	}
}

func TestApproverCancelWhileReading(t *testing.T) {
	pr, pw := io.Pipe()
	defer pw.Close()
	var out strings.Builder
	ap := NewApprover(pr, &out, false)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	d, err := ap.Approve(ctx, bash("go test", permission.Medium), true)
	if !errors.Is(err, context.DeadlineExceeded) || d != permission.Deny {
		t.Fatalf("got %v, %v", d, err)
	}
	// The reader goroutine survives the cancelled question and serves the
	// next one.
	go func() { _, _ = io.WriteString(pw, "y\n") }()
	d, err = ap.Approve(context.Background(), bash("go test", permission.Medium), true)
	if err != nil || d != permission.AllowOnce {
		t.Fatalf("second question: %v, %v", d, err)
	}
	// Closing the input ends the reader: the next question is denied.
	pw.Close()
	d, err = ap.Approve(context.Background(), bash("go test", permission.Medium), true)
	if err != nil || d != permission.Deny {
		t.Fatalf("after close: %v, %v", d, err)
	}
}

func TestApproverReadError(t *testing.T) {
	pr, pw := io.Pipe()
	pw.CloseWithError(errors.New("tty gone"))
	ap := NewApprover(pr, io.Discard, false)
	d, err := ap.Approve(context.Background(), bash("x", permission.Medium), true)
	if d != permission.Deny || err == nil || !strings.Contains(err.Error(), "tty gone") {
		t.Fatalf("got %v, %v", d, err)
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("closed") }

func TestApproverWriteError(t *testing.T) {
	ap := NewApprover(strings.NewReader("y\n"), failingWriter{}, false)
	d, err := ap.Approve(context.Background(), bash("x", permission.Medium), true)
	if d != permission.Deny || err == nil {
		t.Fatalf("got %v, %v", d, err)
	}
}

// TestApproverWithPolicy runs a whole transcript through the policy.
func TestApproverWithPolicy(t *testing.T) {
	pr, pw := io.Pipe()
	defer pw.Close()
	var out strings.Builder
	p := permission.NewPolicy(NewApprover(pr, &out, false))
	go func() { _, _ = io.WriteString(pw, "a\nn\n") }()
	ctx := context.Background()
	steps := []struct {
		action permission.Action
		want   permission.Verdict
	}{
		{bash("go test", permission.Medium), permission.Verdict{Allowed: true}},
		{bash("go test", permission.Medium), permission.Verdict{Allowed: true}}, // remembered, not asked
		{bash("rm", permission.Medium), permission.Verdict{Reason: "denied by the user"}},
	}
	for i, s := range steps {
		v, err := p.Check(ctx, s.action)
		if err != nil || v != s.want {
			t.Fatalf("step %d: %+v, %v, want %+v", i, v, err, s.want)
		}
	}
	if n := strings.Count(out.String(), "permission: run_bash"); n != 2 {
		t.Fatalf("%d prompts, want 2:\n%s", n, out.String())
	}
}

// The chat's approval prompt shows every hidden character of the command,
// the summary, the reasons and the diff (the hostile table of
// visible_test.go), and the tail of a long command.
func TestApproverShowsHiddenCharacters(t *testing.T) {
	long := "echo " + strings.Repeat("a", 400) + " && rm -rf ~/"
	cases := append(fixturetest.HiddenCharacters(), fixturetest.HiddenCharacter{Name: "long command", In: long, Want: "&& rm -rf ~/"})
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			var out strings.Builder
			ap := NewApprover(strings.NewReader("n\n"), &out, true)
			a := permission.Action{Tool: "run_bash", Summary: "run: " + tc.In, Command: tc.In, Risk: permission.High,
				Reasons: []string{"why " + tc.In}, Diff: "+" + tc.In + "\n"}
			if _, err := ap.Approve(context.Background(), a, false); err != nil {
				t.Fatal(err)
			}
			got := out.String()
			if n := strings.Count(got, tc.Want); n < 3 {
				t.Errorf("%q shown %d times, want 3 or more (summary and command, reason, diff):\n%s", tc.Want, n, got)
			}
			// Only our own colours are escape sequences.
			for _, colour := range []string{ansiReset, ansiRed, ansiGreen, ansiBold} {
				got = strings.ReplaceAll(got, colour, "")
			}
			if i := strings.IndexFunc(got, func(r rune) bool { return r != '\n' && permission.Visible(string(r)) != string(r) }); i >= 0 {
				t.Errorf("a hidden character %q reaches the terminal:\n%q", []rune(got[i:])[0], got)
			}
		})
	}
}

func bash(scope string, r permission.Risk) permission.Action {
	return permission.Action{Tool: "run_bash", Summary: "run: " + scope, Scope: scope, Risk: r, Command: scope}
}

// "Always allow" is offered (w, u) only with the session answer, when the
// policy wrote the rule it saves; the box shows that rule.
func TestApproverAlwaysAllow(t *testing.T) {
	withRule := bash("go test ./...", permission.Medium)
	withRule.AlwaysRule = "run_bash: go test ./..."
	for _, tc := range []struct {
		name  string
		input string
		a     permission.Action
		offer bool
		want  permission.Decision
	}{
		{"w saves to the workspace", "w\n", withRule, true, permission.AllowAlwaysWorkspace},
		{"u saves to the user's file", "U\n", withRule, true, permission.AllowAlwaysUser},
		{"no rule: w is not offered", "w\nn\n", bash("go test ./...", permission.Medium), true, permission.Deny},
		{"no session answer: u is not offered", "u\ny\n", withRule, false, permission.AllowOnce},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out strings.Builder
			d, err := NewApprover(strings.NewReader(tc.input), &out, false).Approve(context.Background(), tc.a, tc.offer)
			if err != nil || d != tc.want {
				t.Fatalf("decision %v (%v), want %v; transcript:\n%s", d, err, tc.want, out.String())
			}
			offered := strings.Contains(out.String(), "[w] Always allow in this workspace  [u] Always allow for me")
			if want := tc.a.AlwaysRule != "" && tc.offer; offered != want {
				t.Errorf("Always offered: %v, want %v:\n%s", offered, want, out.String())
			}
			if offered && !strings.Contains(out.String(), "always allow saves the rule: run_bash: go test ./...") {
				t.Errorf("the box does not say what is saved:\n%s", out.String())
			}
		})
	}
}

package agent

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestParseMentions(t *testing.T) {
	cases := []struct {
		prompt string
		want   []mention
	}{
		{"explain @src/x.go#L3-5 please", []mention{{"src/x.go", 3, 5}}},
		{"@a.go and @b/c.txt.", []mention{{"a.go", 0, 0}, {"b/c.txt", 0, 0}}},
		{"line @a.go#L7, range @a.go#L1-L2", []mention{{"a.go", 7, 7}, {"a.go", 1, 2}}},
		{"mail me@example.com, not a mention", nil},
		{"twice @a.go @a.go", []mention{{"a.go", 0, 0}}},
		{"(see @../outside)", []mention{{"../outside", 0, 0}}},
		{"a lone @ sign", nil},
	}
	for _, c := range cases {
		if got := parseMentions(c.prompt); !reflect.DeepEqual(got, c.want) {
			t.Errorf("parseMentions(%q) = %+v, want %+v", c.prompt, got, c.want)
		}
	}
}

func TestAttachMentionsFromDisk(t *testing.T) {
	env := testEnv(t)
	root := env.Workspace.Roots()[0]
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("one\ntwo\nthree\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	text, reps := AttachMentions(context.Background(), env.Workspace, env.Docs,
		"see @a.txt#L2 and @a.txt#L9 and @/etc/passwd", []string{filepath.Join(root, "a.txt")})
	var got []string
	for _, r := range reps {
		got = append(got, r.Path+":"+r.Status)
	}
	if want := []string{"a.txt:attached", "a.txt:failed", "/etc/passwd:refused", "a.txt:attached"}; !reflect.DeepEqual(got, want) {
		t.Errorf("reports = %v, want %v", got, want)
	}
	if !strings.Contains(text, "Attached a.txt (lines 2-2):\n```\ntwo\n```") || !strings.Contains(text, "Attached a.txt:\n```\none\ntwo\nthree\n```") {
		t.Errorf("text = %q", text)
	}
	if !strings.Contains(reps[1].Message, "has 3 lines") {
		t.Errorf("past the end: %q", reps[1].Message)
	}
}

// A mention past its share of the token bound is cut in the middle like a
// read_file result: head and tail kept, a note saying what was cut, and a
// report saying so; one within its share is attached whole.
func TestAttachMentionsWithinCutsWhatDoesNotFit(t *testing.T) {
	env := testEnv(t)
	root := env.Workspace.Roots()[0]
	var big strings.Builder
	for i := 0; big.Len() < 20<<10; i++ {
		fmt.Fprintf(&big, "line %d of a big file\n", i)
	}
	for name, text := range map[string]string{"big.txt": big.String(), "small.txt": "small\n"} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const bound = 1000
	text, reps := AttachMentionsWithin(context.Background(), env.Workspace, env.Docs, "@big.txt and @small.txt", nil, bound)
	if len(reps) != 2 || !strings.Contains(reps[0].Message, "cut to fit the model's context window") || reps[1].Message != "" {
		t.Fatalf("reports %+v", reps)
	}
	if !strings.Contains(text, "line 0 of a big file") || !strings.Contains(text, "cut from the middle of") ||
		!strings.Contains(text, "Attached small.txt:\n```\nsmall\n```") {
		t.Errorf("text %q", text)
	}
	if got := EstimateTokens(text); got > bound+100 {
		t.Errorf("attachments are %d tokens, bound %d", got, bound)
	}
}

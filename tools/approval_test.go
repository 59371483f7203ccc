package tools

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/permission"
)

// runEdit runs one call through a registry with the built-in file tools
// and gate, and returns its outcome.
func runEdit(t *testing.T, e fileToolEnv, c Call, gate Gate) Outcome {
	t.Helper()
	r := NewRegistry()
	for _, tl := range []Tool{NewEditFile(), NewWriteFile()} {
		if err := r.Add(tl); err != nil {
			t.Fatal(err)
		}
	}
	return r.Execute(t.Context(), e.env, []Call{c}, ExecOptions{Gate: gate})[0]
}

// The gate sees the call's id and the proposal hunk by hunk; a review
// taking hunks 1 and 3 writes only those, and the result names hunk 2
// and carries the feedback verbatim.
func TestEditLandsOnlyReviewedHunks(t *testing.T) {
	e := newFileToolEnv(t)
	text := "old1\nkeep\nkeep\nold2\nkeep\nkeep\nold3\n"
	e.write(t, "a.txt", text)
	var seen permission.Action
	gate := gateFunc(func(_ context.Context, a permission.Action) (permission.Verdict, error) {
		seen = a
		return permission.Verdict{Allowed: true, Review: &permission.Reviewed{Hunks: []int{1, 3}, Feedback: "keep the old name"}}, nil
	})
	args := `{"path":"a.txt","content":"new1\nkeep\nkeep\nnew2\nkeep\nkeep\nnew3\n"}`
	o := runEdit(t, e, Call{ID: "call_7", Name: "write_file", Args: json.RawMessage(args)}, gate)
	if seen.CallID != "call_7" || seen.Edit == nil || len(seen.Edit.Hunks) != 3 || seen.Edit.Before != text {
		t.Fatalf("gate saw %+v", seen)
	}
	if got := e.read(t, "a.txt"); got != "new1\nkeep\nkeep\nold2\nkeep\nkeep\nnew3\n" {
		t.Errorf("file = %q", got)
	}
	for _, w := range []string{"wrote a.txt only in part", "applied hunks 1, 3 of 3", "NOT applied: hunk 2 (line 4)", "User feedback: keep the old name"} {
		if o.Status != StatusCompleted || !strings.Contains(o.Output, w) {
			t.Errorf("outcome %+v lacks %q", o, w)
		}
	}
}

// A file changed while the approval was open: the approved edit is made
// on top of the change (it applies to what was shown), or fails with a
// conflict when both touch the same lines.
func TestApprovedEditMergesChangesMadeWhileAsking(t *testing.T) {
	text := "a\nb\nc\nd\ne\nf\n"
	tests := []struct {
		name, meanwhile, want, wantErr string
	}{
		{"far apart", "a\nb\nc\nd\ne\nF typed\n", "A\nb\nc\nd\ne\nF typed\n", ""},
		{"same line", "a typed\nb\nc\nd\ne\nf\n", "a typed\nb\nc\nd\ne\nf\n", "someone edited line 1 of a.txt since you read it"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newFileToolEnv(t)
			p := e.write(t, "a.txt", text)
			gate := gateFunc(func(context.Context, permission.Action) (permission.Verdict, error) {
				if err := os.WriteFile(p, []byte(tt.meanwhile), 0o644); err != nil {
					t.Fatal(err)
				}
				return permission.Verdict{Allowed: true}, nil
			})
			o := runEdit(t, e, Call{ID: "1", Name: "edit_file", Args: json.RawMessage(`{"path":"a.txt","old_string":"a\n","new_string":"A\n"}`)}, gate)
			if got := e.read(t, "a.txt"); got != tt.want {
				t.Errorf("file = %q, want %q", got, tt.want)
			}
			switch {
			case tt.wantErr == "" && o.Status != StatusCompleted:
				t.Errorf("outcome = %+v", o)
			case tt.wantErr != "" && (o.Status != StatusFailed || !strings.Contains(o.Output, tt.wantErr)):
				t.Errorf("outcome = %+v, want a failure with %q", o, tt.wantErr)
			}
		})
	}
}

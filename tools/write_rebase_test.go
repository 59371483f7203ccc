package tools

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/permission"
)

func twentyLines() string {
	var b strings.Builder
	for i := 1; i <= 20; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	return b.String()
}

// replaceLine replaces the whole line "line n" of text.
func replaceLine(text string, n int, with string) string {
	old := fmt.Sprintf("line %d\n", n)
	if !strings.Contains(text, old) {
		panic("no " + old)
	}
	return strings.Replace(text, old, with+"\n", 1)
}

// A write_file is based on the text the model read: what someone changed
// since is kept when it is on other lines, a conflict when on the same
// ones, and a file the model never read is replaced whole.
func TestWriteFileRebasedOntoChangesSinceRead(t *testing.T) {
	base := twentyLines()
	typedFar := replaceLine(base, 18, "typed by the user")
	tests := []struct {
		name    string
		read    bool   // read_file before anything else
		edit    string // an edit_file call's arguments after the read, before the typing
		typed   string // the file after someone else's change, made after the model read it
		content string // write_file's content
		want    string // the file afterwards
		// wantOutput is in the write's result; a conflict fails the call.
		wantOutput string
		failed     bool
		// inDiff / notInDiff: lines of the approval's diff.
		inDiff, notInDiff []string
	}{{
		name: "typing far from the write is kept", read: true,
		typed: typedFar, content: replaceLine(base, 2, "LINE TWO"),
		want:       replaceLine(typedFar, 2, "LINE TWO"),
		wantOutput: "merged with changes made to it since you read it, which were kept",
		inDiff:     []string{"-line 2", "+LINE TWO"}, notInDiff: []string{"-typed by the user", "+line 18"},
	}, {
		name: "typing on the rewritten lines is a conflict", read: true,
		typed: replaceLine(base, 2, "line 2 typed"), content: replaceLine(base, 2, "LINE TWO"),
		want:       replaceLine(base, 2, "line 2 typed"),
		wantOutput: "edit conflict: someone edited line 2 of a.txt since you read it", failed: true,
	}, {
		name:  "a file never read is replaced whole",
		typed: typedFar, content: replaceLine(base, 2, "LINE TWO"),
		want:       replaceLine(base, 2, "LINE TWO"),
		wantOutput: "wrote a.txt (20 lines)",
		inDiff:     []string{"+LINE TWO", "-typed by the user", "+line 18"},
	}, {
		name: "after its own edit the model's version is the base", read: true,
		edit:  `{"path":"a.txt","old_string":"line 2\n","new_string":"LINE TWO\n"}`,
		typed: replaceLine(typedFar, 2, "LINE TWO"), content: replaceLine(replaceLine(base, 2, "LINE TWO"), 5, "LINE FIVE"),
		want:       replaceLine(replaceLine(typedFar, 2, "LINE TWO"), 5, "LINE FIVE"),
		wantOutput: "which were kept",
		inDiff:     []string{"+LINE FIVE"}, notInDiff: []string{"-typed by the user", "-LINE TWO"},
	}, {
		name: "writing back what was read changes nothing", read: true,
		typed: typedFar, content: base,
		want:       typedFar,
		wantOutput: "a.txt unchanged: your content changes nothing of what you read",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fe := newFileToolEnv(t)
			fe.env.Reads = NewReadLog()
			fe.write(t, "a.txt", base)
			var asked []permission.Action
			gate := gateFunc(func(_ context.Context, a permission.Action) (permission.Verdict, error) {
				asked = append(asked, a)
				return permission.Verdict{Allowed: true}, nil
			})
			reg := newTestRegistry(t, NewReadFile(), NewEditFile(), NewWriteFile())
			run := func(id, name, args string) Outcome {
				t.Helper()
				return reg.Execute(context.Background(), fe.env, []Call{{ID: id, Name: name, Args: []byte(args)}}, ExecOptions{Gate: gate})[0]
			}
			if tt.read {
				if o := run("r", "read_file", `{"path":"a.txt"}`); o.Status != StatusCompleted {
					t.Fatalf("read_file: %+v", o)
				}
			}
			if tt.edit != "" {
				if o := run("e", "edit_file", tt.edit); o.Status != StatusCompleted {
					t.Fatalf("edit_file: %+v", o)
				}
			}
			fe.write(t, "a.txt", tt.typed)
			asked = nil

			o := run("w", "write_file", string(argsJSON(t, writeFileArgs{Path: "a.txt", Content: tt.content})))
			if got := fe.read(t, "a.txt"); got != tt.want {
				t.Errorf("file =\n%s\nwant\n%s", got, tt.want)
			}
			if wantStatus := map[bool]Status{false: StatusCompleted, true: StatusFailed}[tt.failed]; o.Status != wantStatus {
				t.Errorf("status = %s, want %s (output %q)", o.Status, wantStatus, o.Output)
			}
			if !strings.Contains(o.Output, tt.wantOutput) {
				t.Errorf("output = %q, want it to contain %q", o.Output, tt.wantOutput)
			}
			if tt.failed {
				if len(asked) != 0 {
					t.Errorf("a conflicting write was put to the user: %+v", asked)
				}
				return
			}
			if len(asked) != 1 {
				t.Fatalf("the write asked %d times", len(asked))
			}
			a := asked[0]
			lines := strings.Split(a.Diff, "\n")
			for _, l := range tt.inDiff {
				if !containsLine(lines, l) {
					t.Errorf("approval diff lacks %q:\n%s", l, a.Diff)
				}
			}
			for _, l := range tt.notInDiff {
				if containsLine(lines, l) {
					t.Errorf("approval diff has %q:\n%s", l, a.Diff)
				}
			}
			// The proposal is against the file's current text, and applying
			// all its hunks gives exactly what was written.
			if a.Edit == nil || a.Edit.Before != tt.typed {
				t.Fatalf("proposal = %+v, want one against the current text", a.Edit)
			}
			if got, err := ApplyHunks(a.Edit.Before, a.Edit.Hunks, nil); err != nil || got != tt.want {
				t.Errorf("the hunks give %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

func containsLine(lines []string, l string) bool {
	for _, x := range lines {
		if x == l {
			return true
		}
	}
	return false
}

// A change made while the approval is open is merged again when the write
// lands (Documents.Apply), on top of the merge with what came before it.
func TestWriteFileRebasedAgainAfterApproval(t *testing.T) {
	base := twentyLines()
	fe := newFileToolEnv(t)
	fe.env.Reads = NewReadLog()
	fe.write(t, "a.txt", base)
	reg := newTestRegistry(t, NewReadFile(), NewWriteFile())
	gate := gateFunc(func(_ context.Context, a permission.Action) (permission.Verdict, error) {
		if a.Tool == "write_file" {
			// The user types on line 20 while the approval is open.
			now := fe.read(t, "a.txt")
			fe.write(t, "a.txt", replaceLine(now, 20, "typed while asked"))
		}
		return permission.Verdict{Allowed: true}, nil
	})
	run := func(name, args string) Outcome {
		return reg.Execute(context.Background(), fe.env, []Call{{ID: name, Name: name, Args: []byte(args)}}, ExecOptions{Gate: gate})[0]
	}
	if o := run("read_file", `{"path":"a.txt"}`); o.Status != StatusCompleted {
		t.Fatalf("read_file: %+v", o)
	}
	fe.write(t, "a.txt", replaceLine(base, 18, "typed after the read"))
	o := run("write_file", string(argsJSON(t, writeFileArgs{Path: "a.txt", Content: replaceLine(base, 2, "LINE TWO")})))
	if o.Status != StatusCompleted {
		t.Fatalf("write_file: %+v", o)
	}
	want := replaceLine(replaceLine(replaceLine(base, 2, "LINE TWO"), 18, "typed after the read"), 20, "typed while asked")
	if got := fe.read(t, "a.txt"); got != want {
		t.Errorf("file =\n%s\nwant\n%s", got, want)
	}
}

// Sessions do not share what their models read; a nil log remembers
// nothing (a write then replaces the file).
func TestReadLogIsPerEnv(t *testing.T) {
	var none *ReadLog
	none.Record("/a", "x")
	if _, ok := none.Lookup("/a"); ok {
		t.Error("a nil log remembered a read")
	}
	one, other := NewReadLog(), NewReadLog()
	one.Record("/a", "x")
	if known, ok := one.Lookup("/a"); !ok || !known.Is("x") {
		t.Errorf("Lookup = %+v, %v", known, ok)
	}
	if _, ok := other.Lookup("/a"); ok {
		t.Error("another log saw the read")
	}
}

package tools

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// bigLines is a text of n numbered lines.
func bigLines(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "line %07d of a file too large to keep\n", i)
	}
	return b.String()
}

// Past maxKeptText a text is kept as its size and hash: it still tells
// the text from any other, but cannot be merged with.
func TestReadLogKeepsLargeTextsAsHash(t *testing.T) {
	l := NewReadLog()
	small, big := "small\n", bigLines(maxKeptText/40+10)
	if len(big) <= maxKeptText {
		t.Fatalf("big is %d bytes", len(big))
	}
	l.Record("/s", small)
	l.Record("/b", big)
	if k, _ := l.Lookup("/s"); !k.Is(small) || k.Is("small") {
		t.Errorf("small text: %+v", k)
	} else if text, kept := k.Text(); !kept || text != small {
		t.Errorf("small text not kept: %q, %v", text, kept)
	}
	k, ok := l.Lookup("/b")
	if text, kept := k.Text(); !ok || kept || text != "" {
		t.Fatalf("big text kept (%d bytes, %v)", len(text), kept)
	}
	changed := strings.Replace(big, "line 0000500", "line 0000501", 1)
	if !k.Is(big) || k.Is(changed) || k.Is(big+"x") || k.Is(big[1:]) {
		t.Errorf("the hash does not tell the big text from others")
	}
	if l.kept != len(small) {
		t.Errorf("kept %d bytes, want %d", l.kept, len(small))
	}
}

// All kept texts together stay under maxKeptTotal: the oldest are reduced
// to hashes first, and are still recognized.
func TestReadLogBoundsTotal(t *testing.T) {
	l := NewReadLog()
	text := func(i int) string { return strings.Repeat(fmt.Sprintf("%d", i%10), maxKeptText) }
	n := maxKeptTotal/maxKeptText + 3
	for i := 0; i < n; i++ {
		l.Record(fmt.Sprintf("/f%d", i), text(i))
		if l.kept > maxKeptTotal {
			t.Fatalf("after %d records %d bytes are kept", i+1, l.kept)
		}
	}
	for i := 0; i < n; i++ {
		k, _ := l.Lookup(fmt.Sprintf("/f%d", i))
		_, kept := k.Text()
		if wantKept := i >= n-maxKeptTotal/maxKeptText; kept != wantKept {
			t.Errorf("file %d kept = %v, want %v", i, kept, wantKept)
		}
		if !k.Is(text(i)) || k.Is(text(i+1)) {
			t.Errorf("file %d not recognized", i)
		}
	}
	// Recording a file again replaces its text: the total counts it once.
	l.Record("/f0", "x")
	l.Record("/f0", "yy")
	if want := len("yy") + (maxKeptTotal/maxKeptText-1)*maxKeptText; l.kept != want {
		t.Errorf("kept %d bytes, want %d", l.kept, want)
	}
}

// A large file the model read and someone changed since cannot be merged
// with a whole-file write: the write is refused until the model reads it
// again. Unchanged, the write goes through; and after the model's own
// edit, its view is the edit's result.
func TestWriteFileOfLargeFileAfterRead(t *testing.T) {
	big := bigLines(maxKeptText/40 + 10)
	mine := strings.Replace(big, "line 0000002 ", "LINE 0000002 ", 1)
	tests := []struct {
		name    string
		edit    string // an edit_file after the read, before the change
		changed string // the file after someone else's change ("" none)
		content string
		want    string // the file afterwards
		refused bool
	}{
		{name: "changed since the read", changed: strings.Replace(big, "line 0000900 ", "typed ", 1),
			content: mine, want: strings.Replace(big, "line 0000900 ", "typed ", 1), refused: true},
		{name: "unchanged", content: mine, want: mine},
		{name: "after its own edit", edit: `{"path":"a.txt","old_string":"line 0000002 ","new_string":"LINE 0000002 "}`,
			content: strings.Replace(mine, "line 0000003 ", "LINE 0000003 ", 1), want: strings.Replace(mine, "line 0000003 ", "LINE 0000003 ", 1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fe := newFileToolEnv(t)
			fe.env.Reads = NewReadLog()
			fe.write(t, "a.txt", big)
			reg := newTestRegistry(t, NewReadFile(), NewEditFile(), NewWriteFile())
			run := func(name, args string) Outcome {
				t.Helper()
				return reg.Execute(context.Background(), fe.env, []Call{{ID: "c", Name: name, Args: []byte(args)}}, ExecOptions{})[0]
			}
			if o := run("read_file", `{"path":"a.txt"}`); o.Status != StatusCompleted {
				t.Fatalf("read_file: %+v", o)
			}
			if tt.edit != "" {
				if o := run("edit_file", tt.edit); o.Status != StatusCompleted {
					t.Fatalf("edit_file: %+v", o)
				}
			}
			if tt.changed != "" {
				fe.write(t, "a.txt", tt.changed)
			}
			o := run("write_file", string(argsJSON(t, writeFileArgs{Path: "a.txt", Content: tt.content})))
			if got := fe.read(t, "a.txt"); got != tt.want {
				t.Errorf("the file is not as it should be (%d bytes, want %d)", len(got), len(tt.want))
			}
			if tt.refused {
				if o.Status != StatusFailed || !strings.Contains(o.Output, "a.txt changed since you read it; read it again") {
					t.Errorf("write = %s %q, want it refused", o.Status, o.Output)
				}
			} else if o.Status != StatusCompleted {
				t.Errorf("write = %s %q", o.Status, o.Output)
			}
		})
	}
}

// An edit of a large file changed since the model read it lands on the
// current text; what the model then knows cannot be followed, so a later
// whole-file write is refused rather than dropping the change.
func TestWriteFileAfterEditOfChangedLargeFileIsRefused(t *testing.T) {
	big := bigLines(maxKeptText/40 + 10)
	fe := newFileToolEnv(t)
	fe.env.Reads = NewReadLog()
	fe.write(t, "a.txt", big)
	reg := newTestRegistry(t, NewReadFile(), NewEditFile(), NewWriteFile())
	run := func(name, args string) Outcome {
		t.Helper()
		return reg.Execute(context.Background(), fe.env, []Call{{ID: "c", Name: name, Args: []byte(args)}}, ExecOptions{})[0]
	}
	if o := run("read_file", `{"path":"a.txt"}`); o.Status != StatusCompleted {
		t.Fatalf("read_file: %+v", o)
	}
	typed := strings.Replace(big, "line 0000900 ", "typed ", 1)
	fe.write(t, "a.txt", typed)
	if o := run("edit_file", `{"path":"a.txt","old_string":"line 0000002 ","new_string":"LINE 0000002 "}`); o.Status != StatusCompleted {
		t.Fatalf("edit_file: %+v", o)
	}
	edited := strings.Replace(typed, "line 0000002 ", "LINE 0000002 ", 1)
	o := run("write_file", string(argsJSON(t, writeFileArgs{Path: "a.txt", Content: strings.Replace(big, "line 0000002 ", "LINE 0000002 ", 1)})))
	if o.Status != StatusFailed || !strings.Contains(o.Output, "changed since you read it; read it again") {
		t.Errorf("write = %s %q, want it refused", o.Status, o.Output)
	}
	if fe.read(t, "a.txt") != edited {
		t.Error("the file lost the edit or the typing")
	}
}

package tools

import (
	"errors"
	"strings"
	"testing"
)

// A file changed on disk since it was read: a change to other lines is
// merged with the edit; a change to the same lines is refused and kept.
func TestDiskApplyMergesChangesOnOtherLines(t *testing.T) {
	e := newFileToolEnv(t)
	p := e.write(t, "a.txt", "one\ntwo\nthree\nfour\n")
	before, _ := e.env.Docs.Read(t.Context(), p)
	e.write(t, "a.txt", "one\ntwo\nthree\nfour changed elsewhere\n")
	if err := e.env.Docs.Apply(t.Context(), FileEdit{Before: before, After: "ONE\ntwo\nthree\nfour\n"}); err != nil {
		t.Fatal(err)
	}
	if got := e.read(t, "a.txt"); got != "ONE\ntwo\nthree\nfour changed elsewhere\n" {
		t.Errorf("file = %q", got)
	}

	e.write(t, "a.txt", "one\ntwo\nthree\nfour\n")
	before, _ = e.env.Docs.Read(t.Context(), p)
	e.write(t, "a.txt", "one mine\ntwo\nthree\nfour\n")
	err := e.env.Docs.Apply(t.Context(), FileEdit{Before: before, After: "ONE\ntwo\nthree\nfour\n"})
	if !errors.Is(err, ErrChangedOnDisk) || !errors.Is(err, ErrEditConflict) || !strings.Contains(err.Error(), "edited line 1 of a.txt") {
		t.Errorf("got %v", err)
	}
	if got := e.read(t, "a.txt"); got != "one mine\ntwo\nthree\nfour\n" {
		t.Errorf("the concurrent change was overwritten: %q", got)
	}
}

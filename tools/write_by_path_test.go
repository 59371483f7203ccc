//go:build unix

package tools

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// stubFreezer is a CommandFreezer that fails with err, or counts thaws.
type stubFreezer struct {
	err    error
	thawed int
}

func (f *stubFreezer) Freeze(context.Context) (func(), error) {
	if f.err != nil {
		return nil, f.err
	}
	return func() { f.thawed++ }, nil
}

// WriteByPath writes only with the commands frozen and every path inside;
// the commands are continued on every way out, a panic included.
func TestWriteByPath(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	if err := os.Symlink(outside, filepath.Join(root, "out")); err != nil {
		t.Fatal(err)
	}
	ws, err := NewWorkspace(root)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	inside, through := filepath.Join(root, "new", "a.txt"), filepath.Join(root, "out", "a.txt")
	wrote := false
	write := func() error { wrote = true; return nil }

	f := &stubFreezer{}
	if err := WriteByPath(t.Context(), f, ws, []string{inside}, write); err != nil || !wrote || f.thawed != 1 {
		t.Errorf("inside: %v, wrote %v, thawed %d; want written, thawed once", err, wrote, f.thawed)
	}

	wrote, f = false, &stubFreezer{}
	err = WriteByPath(t.Context(), f, ws, []string{inside, through}, write)
	if err == nil || !strings.HasPrefix(err.Error(), "refused: ") || !strings.Contains(err.Error(), "outside the workspace") || wrote || f.thawed != 1 {
		t.Errorf("through a symlink out: %v, wrote %v, thawed %d; want refused, not written, thawed once", err, wrote, f.thawed)
	}

	wrote, f = false, &stubFreezer{err: errors.New("process 7 in state D")}
	if err := WriteByPath(t.Context(), f, ws, []string{inside}, write); err == nil || !strings.Contains(err.Error(), "state D") || wrote {
		t.Errorf("freeze failed: %v, wrote %v; want the freeze's error, not written", err, wrote)
	}

	f = &stubFreezer{}
	func() {
		defer func() { _ = recover() }()
		_ = WriteByPath(t.Context(), f, ws, []string{inside}, func() error { panic("editor gone") })
	}()
	if f.thawed != 1 {
		t.Errorf("after a panic: thawed %d times, want once", f.thawed)
	}
}

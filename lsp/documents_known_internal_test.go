package lsp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/agent-lsp/agent-lsp/lsp/lsptest"
	"github.com/agent-lsp/agent-lsp/tools"
)

// An edit carries what its texts share at their ends (tools.Unchanged, an
// edit_file replacement's). When the user changed the buffer since the
// edit was computed, the edit is merged into the buffer's text, which the
// known ends are not of: the applyEdit's diff is made without them, so
// the buffer holds both changes. Kept, they would claim the first 10 bytes
// unchanged, and the diff would miss the agent's change at byte 5.
func TestMergedEditDropsItsKnownEnds(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	before := "aaaa\nbbbb\ncccc\ndddd\n"
	path := filepath.Join(root, "a.txt")
	if err := os.WriteFile(path, []byte(before), 0o644); err != nil {
		t.Fatal(err)
	}
	s, ed, stop := serveOnPipe(ctx, t)
	defer stop()
	caps := lsptest.Capabilities{ApplyEdit: true, DocumentChanges: true}
	if _, err := ed.Initialize(ctx, root, caps, nil); err != nil {
		t.Fatal(err)
	}
	if err := ed.Open(ctx, path, before); err != nil {
		t.Fatal(err)
	}
	settle := func() { // answered after the notifications before it
		var sessions json.RawMessage
		if err := ed.Call(ctx, "agent/sessions", map[string]any{}, &sessions); err != nil {
			t.Fatal(err)
		}
	}
	settle()
	docs := s.documents()
	doc, err := docs.Read(ctx, path)
	if err != nil || doc.Text != before {
		t.Fatalf("read %q, %v", doc.Text, err)
	}
	// The user deletes the first line and adds two at the end: the buffer
	// is no shorter, so the stale known ends would still fit it.
	line := func(n uint32) protocol.Range {
		return protocol.Range{Start: protocol.Position{Line: n}, End: protocol.Position{Line: n + 1}}
	}
	if err := ed.Change(ctx, path, line(3), "dddd\neeee\nffff\n"); err != nil {
		t.Fatal(err)
	}
	if err := ed.Change(ctx, path, line(0), ""); err != nil {
		t.Fatal(err)
	}
	settle()
	after := "aaaa\nbbbb\nCCCC\ndddd\n"
	edit := tools.FileEdit{Tool: "edit_file", Before: doc, After: after, Unchanged: tools.Unchanged{Prefix: 10, Suffix: 6}}
	if err := docs.Apply(ctx, edit); err != nil {
		t.Fatal(err)
	}
	want := "bbbb\nCCCC\ndddd\neeee\nffff\n"
	if buf, _ := ed.Buffer(path); buf.Text != want {
		t.Fatalf("buffer %q, want %q", buf.Text, want)
	}
}

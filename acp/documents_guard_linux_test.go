package acp

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agent-lsp/agent-lsp/tools"
)

// swappingPeer is an ACP client that writes fs/write_text_file by path,
// as editors do; between the agent's read and its write, a command (here
// the test, at the read) swaps the edited file's directory for a symlink
// to a directory outside the workspace.
type swappingPeer struct {
	peer
	dir, outside string
	frozen       *freezeCounter
	wroteFrozen  bool
}

func (p *swappingPeer) ReadTextFile(_ context.Context, r sdk.ReadTextFileRequest) (sdk.ReadTextFileResponse, error) {
	data, err := os.ReadFile(r.Path)
	if err != nil {
		return sdk.ReadTextFileResponse{}, err
	}
	// The race, made certain: the directory becomes a symlink out.
	if err := os.Rename(p.dir, p.dir+".real"); err != nil {
		return sdk.ReadTextFileResponse{}, err
	}
	if err := os.Symlink(p.outside, p.dir); err != nil {
		return sdk.ReadTextFileResponse{}, err
	}
	return sdk.ReadTextFileResponse{Content: string(data)}, nil
}

func (p *swappingPeer) WriteTextFile(_ context.Context, r sdk.WriteTextFileRequest) (sdk.WriteTextFileResponse, error) {
	p.wroteFrozen = p.frozen.holding()
	return sdk.WriteTextFileResponse{}, os.WriteFile(r.Path, []byte(r.Content), 0o644)
}

// freezeCounter is a CommandFreezer that records whether a freeze holds.
type freezeCounter struct {
	mu            sync.Mutex
	held, freezes int
}

func (f *freezeCounter) Freeze(context.Context) (func(), error) {
	f.mu.Lock()
	f.held++
	f.freezes++
	f.mu.Unlock()
	return func() {
		f.mu.Lock()
		f.held--
		f.mu.Unlock()
	}, nil
}

func (f *freezeCounter) holding() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.held > 0
}

// An edit the client writes by path is checked with the commands frozen:
// a directory swapped for a symlink out after the agent read the file
// makes the write refused, nothing lands outside, and the freeze is over.
// A path that stays inside is written while the commands are frozen.
func TestClientWritesCannotLandOutside(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	dir := filepath.Join(root, "dir")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "a.txt")
	if err := os.WriteFile(path, []byte("one\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ws, err := tools.NewWorkspace(root)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	frozen := &freezeCounter{}
	p := &swappingPeer{dir: dir, outside: outside, frozen: frozen}
	docs := newClientDocs(ws, &session{peer: p, ws: ws})
	docs.clientRead, docs.clientWrite, docs.commands = true, true, frozen

	edit := tools.FileEdit{Tool: "edit_file", Before: tools.Doc{Path: path, Text: "one\n", Exists: true}, After: "two\n"}
	err = docs.Apply(t.Context(), edit)
	if err == nil || !strings.Contains(err.Error(), "refused") || !strings.Contains(err.Error(), "outside the workspace") {
		t.Errorf("a write through a symlink out: %v, want it refused", err)
	}
	if _, err := os.Stat(filepath.Join(outside, "a.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the client wrote outside the workspace (%v)", err)
	}
	if frozen.freezes != 1 || frozen.holding() {
		t.Errorf("%d freezes, one still held: %v; want one, over", frozen.freezes, frozen.holding())
	}

	// Put the directory back; the client's read swaps it again, so swap
	// it back once more through a peer that leaves it alone.
	if err := os.Remove(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(dir+".real", dir); err != nil {
		t.Fatal(err)
	}
	docs.s.peer = &steadyPeer{swappingPeer: p}
	if err := docs.Apply(t.Context(), edit); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(path); string(data) != "two\n" || !p.wroteFrozen {
		t.Errorf("inside: %q written while frozen %v, want two, frozen", data, p.wroteFrozen)
	}
}

// steadyPeer reads without swapping.
type steadyPeer struct{ *swappingPeer }

func (p *steadyPeer) ReadTextFile(_ context.Context, r sdk.ReadTextFileRequest) (sdk.ReadTextFileResponse, error) {
	data, err := os.ReadFile(r.Path)
	return sdk.ReadTextFileResponse{Content: string(data)}, err
}

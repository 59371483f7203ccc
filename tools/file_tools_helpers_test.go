package tools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// fileToolEnv is a workspace in a temp dir with disk documents.
type fileToolEnv struct {
	root string
	env  *Env
}

func newFileToolEnv(t *testing.T) fileToolEnv {
	t.Helper()
	root := filepath.Join(t.TempDir(), "ws")
	if err := os.Mkdir(root, 0o755); err != nil {
		t.Fatal(err)
	}
	ws, err := NewWorkspace(root)
	if err != nil {
		t.Fatal(err)
	}
	real := ws.Roots()[0] // TempDir may sit behind a symlink
	return fileToolEnv{root: real, env: &Env{Workspace: ws, Docs: &DiskDocuments{Workspace: ws}}}
}

// write creates rel (and its parents) with text.
func (e fileToolEnv) write(t *testing.T, rel, text string) string {
	t.Helper()
	p := filepath.Join(e.root, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func (e fileToolEnv) read(t *testing.T, rel string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(e.root, rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// argsJSON marshals a tool's arguments.
func argsJSON(t *testing.T, v any) json.RawMessage {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// runTool runs a tool directly (no registry), returning output and error.
func runTool(t *testing.T, tool Tool, env *Env, args any) (string, error) {
	t.Helper()
	res, err := tool.Run(context.Background(), argsJSON(t, args), env)
	if err != nil {
		return "", err
	}
	if res.IsError {
		t.Fatalf("%s: unexpected IsError result: %s", tool.Name(), res.Output)
	}
	return res.Output, nil
}

// overlayDocs stands for an editor: one path has an unsaved buffer whose
// text differs from the disk; edits to it land in the buffer.
type overlayDocs struct {
	Documents
	path string
	text string
}

func (o overlayDocs) Read(ctx context.Context, path string) (Doc, error) {
	if path == o.path {
		v := int32(7)
		return Doc{Path: path, Text: o.text, Exists: true, Version: &v}, nil
	}
	return o.Documents.Read(ctx, path)
}

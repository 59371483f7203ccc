package tools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// newSearchEnv makes a workspace holding files (slash path → content) and
// returns an Env over it and its root.
func newSearchEnv(t *testing.T, files map[string]string) (*Env, string) {
	t.Helper()
	ws, err := NewWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root := ws.Roots()[0]
	writeSearchFiles(t, root, files)
	return &Env{Workspace: ws, Docs: &DiskDocuments{Workspace: ws}}, root
}

func writeSearchFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for p, content := range files {
		abs := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(abs, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// callTool runs Describe then Run, as the registry does, and returns Run's
// result or the first error.
func callTool(t *testing.T, ctx context.Context, tool Tool, env *Env, args map[string]any) (Result, error) {
	t.Helper()
	raw, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tool.Describe(t.Context(), raw, env); err != nil {
		return Result{}, err
	}
	return tool.Run(ctx, raw, env)
}

func sortStrings(s []string) { slices.Sort(s) }

// TestSearchBashToolSpecs keeps the three tools' specs within the prompt
// budget (the first request must stay under 8 KB of JSON) and valid.
func TestSearchBashToolSpecs(t *testing.T) {
	for _, tool := range []Tool{NewGlob(), NewGrep(), NewRunBash()} {
		if n := len(tool.Description()); n > 450 {
			t.Errorf("%s: description is %d bytes, budget 450", tool.Name(), n)
		}
		var schema struct {
			Type       string                     `json:"type"`
			Properties map[string]json.RawMessage `json:"properties"`
			Required   []string                   `json:"required"`
		}
		if err := json.Unmarshal(tool.Schema(), &schema); err != nil || schema.Type != "object" || len(schema.Required) != 1 {
			t.Errorf("%s: schema %s: %v", tool.Name(), tool.Schema(), err)
		}
		if n := len(tool.Schema()); n > 500 {
			t.Errorf("%s: schema is %d bytes, budget 500", tool.Name(), n)
		}
	}
}

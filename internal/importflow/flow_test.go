package importflow

import (
	"bytes"
	"context"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// The repository follows docs/design.md §3: go list's account of every
// package of the module, checked against rules, with no rule left over.
func TestTheModuleFollowsTheImportFlow(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var module struct{ Path, Dir string }
	if err := json.Unmarshal(goList(t, ctx, "", "-m", "-json"), &module); err != nil || module.Path == "" {
		t.Fatalf("go list -m: %v %+v", err, module)
	}
	out := goList(t, ctx, module.Dir, "-json=ImportPath,Imports,TestImports,XTestImports", "./...")
	pkgs, err := decode(bytes.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	// The checker passes an empty list: make sure go list saw the tree.
	seen := map[string]bool{}
	for _, p := range pkgs {
		seen[strings.TrimPrefix(p.ImportPath, module.Path+"/")] = true
	}
	for _, want := range []string{"provider", "tools", "agent", "agent/control", "lsp", "acp", "cmd/agent-lsp", "internal/importflow"} {
		if !seen[want] {
			t.Fatalf("go list did not report %s among its %d packages", want, len(pkgs))
		}
	}
	for _, msg := range check(module.Path, rules, pkgs) {
		t.Error(msg)
	}
	for _, msg := range unused(module.Path, rules, pkgs) {
		t.Error(msg)
	}
}

// goList runs go list in dir ("": the test's) and returns its stdout.
func goList(t *testing.T, ctx context.Context, dir string, args ...string) []byte {
	t.Helper()
	cmd := exec.CommandContext(ctx, "go", append([]string{"list"}, args...)...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return out
}

package modulezip

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/mod/module"
	"golang.org/x/mod/zip"
)

// installVersion is the version the local proxy serves: nothing else
// could produce it.
const installVersion = "v0.99.0-installtest"

// TestGoInstallFromAProxy is what a user runs: `go install
// <module>/cmd/agent-lsp@<version>`, here from a local module proxy
// (GOPROXY=file://) serving the committed tree as the proxy would zip it,
// and `agent-lsp --version` prints that version (from the build
// information: no -ldflags).
func TestGoInstallFromAProxy(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary from a module zip")
	}
	root := moduleRoot(t)
	if err := exec.Command("git", "-C", root, "rev-parse", "HEAD").Run(); err != nil {
		t.Skipf("not a git checkout: %v", err)
	}
	modPath := modulePath(t, root)
	proxy := t.TempDir()
	escaped, err := module.EscapePath(modPath)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(proxy, escaped, "@v")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	zf, err := os.Create(filepath.Join(dir, installVersion+".zip"))
	if err != nil {
		t.Fatal(err)
	}
	if err := zip.CreateFromVCS(zf, module.Version{Path: modPath, Version: installVersion}, root, "HEAD", ""); err != nil {
		t.Fatalf("zipping HEAD as the proxy would: %v", err)
	}
	if err := zf.Close(); err != nil {
		t.Fatal(err)
	}
	gomod, err := exec.Command("git", "-C", root, "show", "HEAD:go.mod").Output()
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"list":                   installVersion + "\n",
		installVersion + ".mod":  string(gomod),
		installVersion + ".info": `{"Version":"` + installVersion + `","Time":"2026-12-07T00:00:00Z"}` + "\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	gobin := t.TempDir()
	install := exec.CommandContext(ctx, "go", "install", modPath+"/cmd/agent-lsp@"+installVersion)
	install.Dir = t.TempDir() // outside the module: what a user does
	// The dependencies come from the module cache the tests already
	// filled; the proxy is the local one, after it the configured one.
	upstream, _ := exec.Command("go", "env", "GOPROXY").Output()
	install.Env = append(os.Environ(), "GOBIN="+gobin, "GOFLAGS=", "GOSUMDB=off",
		"GOPROXY=file://"+filepath.ToSlash(proxy)+","+strings.TrimSpace(string(upstream)))
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("go install from the module proxy: %v\n%s", err, out)
	}
	out, err := exec.CommandContext(ctx, filepath.Join(gobin, "agent-lsp"), "--version").Output()
	if err != nil || string(out) != "agent-lsp "+installVersion+"\n" {
		t.Errorf("--version of the installed binary = %q, %v; want agent-lsp %s", out, err, installVersion)
	}
}

func modulePath(t *testing.T, root string) string {
	cmd := exec.Command("go", "list", "-m")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -m: %v", err)
	}
	return strings.TrimSpace(string(out))
}

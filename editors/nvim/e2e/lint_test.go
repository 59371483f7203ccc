package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/agent-lsp/agent-lsp/lsp/lsptest"
)

// The plugin's Lua is as StyLua formats it (.stylua.toml) and luacheck
// finds nothing in it (.luacheckrc): the plugin, its plugin/ file and the
// e2e scenarios. StyLua runs as its WASM build under node
// (editors/nvim/lint, npm ci by scripts/install-test-peers), luacheck is
// Debian's lua-check; a missing one skips, and fails under CI.
func TestLuaFormattedAndLintClean(t *testing.T) {
	plugin, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	t.Run("stylua", func(t *testing.T) {
		node := lsptest.RequirePeer(t, "node")
		if _, err := os.Stat(filepath.Join(plugin, "lint", "node_modules", "@johnnymorganz", "stylua")); err != nil {
			missing(t, "StyLua's npm package (npm ci in editors/nvim/lint; scripts/install-test-peers does it): "+err.Error())
		}
		lint(t, plugin, node, filepath.Join(plugin, "lint", "stylua.js"), "--check", ".")
	})
	t.Run("luacheck", func(t *testing.T) {
		luacheck := lsptest.RequirePeer(t, "luacheck")
		lint(t, plugin, luacheck, "--no-color", "--codes", "-q", ".")
	})
}

// missing skips the test for a lint tool that is not installed, or fails
// it under CI, which installs them all.
func missing(t *testing.T, what string) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatalf("%s is missing", what)
	}
	t.Skipf("%s is missing", what)
}

// lint runs a checker in the plugin's directory (where both find their
// config) and fails with its report when it exits non-zero.
func lint(t *testing.T, dir, bin string, args ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	cmd.WaitDelay = 2 * time.Second
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("%s %v in editors/nvim: %v\n%s", filepath.Base(bin), args, err, out)
	}
}

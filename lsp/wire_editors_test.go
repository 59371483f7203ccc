package lsp_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/agent-lsp/agent-lsp/lsp/lsptest"
)

// The Neovim plugin reads every golden message (testdata/wire, which
// TestWireGolden keeps equal to the Go types) as it reads them from the
// daemon: editors/nvim/test/wire.lua checks each field the plugin uses
// (lua/agent_lsp/protocol.lua) under plain Lua 5.1, no Neovim. The VS Code
// side is src/test/wire.test.ts, run by scripts/build-vscode.
func TestNvimPluginReadsTheWire(t *testing.T) {
	lua := lsptest.RequirePeer(t, "lua5.1")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if out, err := exec.CommandContext(ctx, lua, "-e", "require('dkjson')").CombinedOutput(); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("lua-dkjson is not installed (scripts/install-test-peers installs it): %v\n%s", err, out)
		}
		t.Skipf("lua-dkjson is not installed (run scripts/install-test-peers): %v", err)
	}
	files, err := filepath.Glob(filepath.Join("testdata", "wire", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden files in testdata/wire (%v): go test ./lsp -run TestWireGolden -update", err)
	}
	cmd := exec.CommandContext(ctx, lua, append([]string{filepath.Join("..", "editors", "nvim", "test", "wire.lua")}, files...)...)
	cmd.WaitDelay = 2 * time.Second
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("editors/nvim/test/wire.lua: %v\n%s", err, out)
	}
	t.Logf("%s", out)
}

package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agent-lsp/agent-lsp/lsp/lsptest"
)

// doc/tags is shipped, so `:help agent_lsp` works for a runtimepath install
// (a plugin manager may not run :helptags). It must be what :helptags
// makes of doc/agent_lsp.txt today, and :help must find the plugin's
// help through it.
func TestHelpTagsShippedAndCurrent(t *testing.T) {
	plugin, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	shipped, err := os.ReadFile(filepath.Join(plugin, "doc", "tags"))
	if err != nil {
		t.Fatalf("doc/tags is not shipped: %v", err)
	}
	help, err := os.ReadFile(filepath.Join(plugin, "doc", "agent_lsp.txt"))
	if err != nil {
		t.Fatal(err)
	}
	eachNvim(t, func(t *testing.T, nvim lsptest.Nvim) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "agent_lsp.txt"), help, 0o644); err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(t.TempDir(), "help.txt")
		runNvim(t, nvim, "-c", "helptags "+dir,
			"--cmd", "set rtp^="+plugin,
			"-c", "help agent_lsp-floats",
			"-c", "lua io.open('"+out+"', 'w'):write(vim.fn.expand('%:t') .. '\\n' .. vim.fn.getline('.'))",
			"-c", "qa!")
		made, err := os.ReadFile(filepath.Join(dir, "tags"))
		if err != nil {
			t.Fatalf(":helptags made no tags: %v", err)
		}
		if string(made) != string(shipped) {
			t.Errorf("doc/tags is stale; regenerate with :helptags editors/nvim/doc\nmade:\n%s\nshipped:\n%s", made, shipped)
		}
		got, err := os.ReadFile(out)
		if err != nil {
			t.Fatalf(":help agent_lsp-floats left no answer: %v", err)
		}
		if lines := strings.SplitN(string(got), "\n", 2); lines[0] != "agent_lsp.txt" || !strings.Contains(lines[1], "*agent_lsp-floats*") {
			t.Errorf(":help agent_lsp-floats opened %q", got)
		}
	})
}

// runNvim runs headless Neovim with no user config and the args.
func runNvim(t *testing.T, nvim lsptest.Nvim, args ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, nvim.Path, append([]string{"--headless", "--clean", "-n", "-i", "NONE", "-u", "NONE"}, args...)...)
	cmd.Env = isolatedEnv(t)
	cmd.WaitDelay = 2 * time.Second
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("nvim %v: %v\n%s", args, err, out)
	}
}

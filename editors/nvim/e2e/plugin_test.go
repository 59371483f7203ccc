package e2e

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agent-lsp/agent-lsp/lsp/lsptest"
)

// startupNvim runs headless Neovim with the plugin on the runtime path and
// the plugin/ files sourced (--clean loads them; -u NONE would not), runs
// the -c commands in args, and returns the JSON lines they wrote with
// :lua out(value). The default daemon command is not on $PATH: nothing
// here needs a daemon.
func startupNvim(t *testing.T, nvim lsptest.Nvim, args ...string) []json.RawMessage {
	t.Helper()
	plugin, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out.jsonl")
	define := "lua function _G.out(v) local f = io.open('" + out + "', 'a'); f:write(vim.json.encode(v) .. '\\n'); f:close() end"
	all := append([]string{"--headless", "--clean", "-n", "-i", "NONE", "--cmd", "set rtp^=" + plugin, "--cmd", define},
		args...)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, nvim.Path, append(all, "-c", "qa!")...)
	cmd.Env = append(isolatedEnv(t), "PATH=/nonexistent")
	cmd.WaitDelay = 2 * time.Second
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("nvim: %v\n%s", err, b)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("nvim wrote nothing: %v", err)
	}
	var lines []json.RawMessage
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		lines = append(lines, json.RawMessage(l))
	}
	return lines
}

// linkOf is a Lua expression: the group the highlight group g shows as
// (its link followed to the end), ” when it is not defined.
func linkOf(g string) string {
	return "vim.fn.synIDattr(vim.fn.synIDtrans(vim.fn.hlID('" + g + "')), 'name')"
}

// plugin/agent_lsp.lua: with the plugin on the runtime path and no
// setup() call, the commands and the default highlight groups exist (and
// come back after :colorscheme clears the groups); the first command used
// sets the plugin up with the defaults and runs (:AgentChat opens the
// chat).
func TestCommandsAndHighlightsBeforeSetup(t *testing.T) {
	groups := "{ " + linkOf("AgentLspFloat") + ", " + linkOf("AgentLspUser") + ", " + linkOf("AgentLspReviewAccepted") + " }"
	eachNvim(t, func(t *testing.T, nvim lsptest.Nvim) {
		got := startupNvim(t, nvim,
			"-c", "lua out({ vim.fn.exists(':AgentChat'), vim.fn.exists(':AgentRewind'), require('agent_lsp').is_setup() })",
			"-c", "lua out("+groups+")",
			"-c", "colorscheme default",
			"-c", "lua out("+groups+")",
			"-c", "AgentChat",
			"-c", "lua out({ require('agent_lsp').is_setup(), vim.fn.bufnr('agent-lsp://chat') > 0 })")
		want := []string{
			`[2,2,false]`,                  // the commands, before setup()
			`["Normal","Title","DiffAdd"]`, // the floats', the chat's and the review's groups
			`["Normal","Title","DiffAdd"]`, // again after :colorscheme
			`[true,true]`,                  // :AgentChat set the plugin up and opened the chat
		}
		if len(got) != len(want) {
			t.Fatalf("nvim wrote %s, want %d lines", got, len(want))
		}
		for i := range want {
			if string(got[i]) != want[i] {
				t.Errorf("line %d = %s, want %s", i, got[i], want[i])
			}
		}
	})
}

// A command's completion before setup() completes (the modes after
// :AgentMode) and sets the plugin up on the way.
func TestCommandCompletionBeforeSetup(t *testing.T) {
	eachNvim(t, func(t *testing.T, nvim lsptest.Nvim) {
		got := startupNvim(t, nvim,
			"-c", "lua out({ vim.fn.getcompletion('AgentMode ', 'cmdline'), vim.fn.getcompletion('AgentMode pl', 'cmdline') })",
			"-c", "lua out(require('agent_lsp').is_setup())")
		if len(got) != 2 || string(got[0]) != `[["ask","plan","default","auto-edit"],["plan"]]` || string(got[1]) != "true" {
			t.Errorf("completion before setup() = %s, want the modes, then setup() done", got)
		}
	})
}

// The load guard: vim.g.loaded_agent_lsp set before startup leaves the
// plugin's commands and groups out; sourced a second time, the file does
// nothing again (a command deleted meanwhile stays deleted).
func TestPluginLoadGuard(t *testing.T) {
	eachNvim(t, func(t *testing.T, nvim lsptest.Nvim) {
		got := startupNvim(t, nvim, "--cmd", "let g:loaded_agent_lsp = 1",
			"-c", "lua out({ vim.fn.exists(':AgentChat'), vim.fn.hlexists('AgentLspFloat') })")
		if len(got) != 1 || string(got[0]) != "[0,0]" {
			t.Errorf("with g:loaded_agent_lsp set before startup: %s, want [0,0] (no command, no group)", got)
		}
		got = startupNvim(t, nvim,
			"-c", "lua out(vim.g.loaded_agent_lsp)",
			"-c", "delcommand AgentChat",
			"-c", "runtime plugin/agent_lsp.lua",
			"-c", "lua out({ vim.fn.exists(':AgentChat'), vim.fn.exists(':AgentAsk') })")
		if len(got) != 2 || string(got[0]) != "true" || string(got[1]) != "[0,2]" {
			t.Errorf("sourced twice: %s, want true then [0,2] (the second time did nothing)", got)
		}
	})
}

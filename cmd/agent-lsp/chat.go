package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/term"
	"github.com/agent-lsp/agent-lsp/tools"
)

// runChat is `agent-lsp chat`: its flags, read into term.Options; the
// terminal (package term) does the rest.
func runChat(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	f, fs, err := parseChatFlags(args, stderr)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			chatUsage(stdout, fs)
			return 0
		}
		fmt.Fprintf(stderr, "agent-lsp chat: %v (agent-lsp chat -h lists the flags)\n", err)
		return 2
	}
	o := term.Options{Stdin: stdin, Stdout: stdout, Stderr: stderr, Dir: f.dir, StateDir: f.stateDir, NoSave: f.noSave}
	if f.list {
		return term.List(o)
	}
	log, err := newLogger(f.logFile, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "agent-lsp chat: %v\n", err)
		return 2
	}
	defer log.Sync() //nolint:errcheck // nothing useful to do with a failed flush
	cfg := f.config(fs, tools.Getenv)
	hideSecrets(cfg, log)

	o.Logger, o.NoColor, o.Prompt = log, f.noColor, f.prompt
	o.Model, o.UserModel, o.Getenv, o.Windows = cfg, f.userModel(fs, tools.Getenv), secretGetenv, f.windows()
	o.RecordPath, o.ReplayPath, o.ReplayDeniedPath = f.record, f.replay, f.replayDenied
	if f.dumpRaw {
		o.RawDump = os.Stderr
	}
	o.Sandbox, o.SandboxAutoAllow, o.Yes = f.sandbox, f.sandboxAutoAllow, f.yes
	o.WebFetch = f.webFetch
	o.Sandbox.ForceUnavailable = os.Getenv(envForceNoSandbox) == "1"
	o.MCP, o.TrustWorkspace = f.mcp, f.trustWorkspace
	o.Resume, o.Continue, o.Mode, o.Budget, o.Keep = f.resume, f.cont, f.mode, f.budget, f.keep

	ctx, stop := terminationContext()
	defer stop()
	return term.Run(ctx, o)
}

// userModel names the model settings this run's flags and AGENT_LSP_*
// variables chose, and which chose each (a flag over its variable): they
// win over a resumed session's stored model (control.Options.UserModel).
func (m *modelFlags) userModel(fs *flag.FlagSet, getenv func(string) string) map[string]string {
	out := map[string]string{}
	for _, v := range []struct{ key, env string }{
		{"provider", provider.EnvProvider}, {"baseURL", provider.EnvBaseURL}, {"model", provider.EnvModel},
	} {
		if getenv(v.env) != "" {
			out[v.key] = v.env
		}
	}
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "provider":
			out["provider"] = "--provider"
		case "base-url":
			out["baseURL"] = "--base-url"
		case "model":
			out["model"] = "--model"
		}
	})
	return out
}

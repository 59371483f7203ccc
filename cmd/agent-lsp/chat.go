package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"go.uber.org/zap"

	"github.com/agent-lsp/agent-lsp/agent/control"
	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/term"
	"github.com/agent-lsp/agent-lsp/tools"
)

// runChat is `agent-lsp chat`: its flags, then the terminal (package term)
// on the world newChat wires.
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
	if f.list {
		return listSessions(f, stdout, stderr)
	}
	log, err := newLogger(f.logFile, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "agent-lsp chat: %v\n", err)
		return 2
	}
	defer log.Sync() //nolint:errcheck // nothing useful to do with a failed flush
	hideSecrets(f.config(fs, tools.Getenv), log)

	ctx, stop := terminationContext()
	defer stop()
	t := term.New(term.Options{Stdin: stdin, Stdout: stdout, Stderr: stderr, NoColor: f.noColor, Prompt: f.prompt,
		Resume: f.resume, Continue: f.cont, Mode: f.mode})
	w, err := newChat(ctx, f, fs, t, stderr, log)
	if err != nil {
		fmt.Fprintf(stderr, "agent-lsp chat: %v\n", err)
		return 1
	}
	return t.Run(ctx, w)
}

// listSessions is `agent-lsp chat --list`: the sessions as the controller
// lists them.
func listSessions(f *chatFlags, stdout, stderr io.Writer) int {
	store, err := openStore(f, zap.NewNop())
	if err == nil && store == nil {
		err = errors.New("--list: no session store (--no-save)")
	}
	if err != nil {
		fmt.Fprintf(stderr, "agent-lsp chat: %v\n", err)
		return 1
	}
	ctl := control.New(control.Options{Store: store})
	defer ctl.Close() //nolint:errcheck // it loaded nothing
	term.WriteSessions(stdout, ctl.List(), workspaceRoot(f.dir), time.Now())
	return 0
}

// workspaceRoot is the root a workspace made of dir has (as stored with
// its sessions); dir itself when it cannot be made absolute.
func workspaceRoot(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return dir
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		return r
	}
	return abs
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

package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"go.uber.org/zap"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/provider"
)

// sessionToOpen is the stored session --resume or --continue names; ""
// for a new one. --continue takes the latest session of this workspace:
// a session of another project would run its tools here. Sessions stored
// before workspaces were recorded belong to none (--resume still opens
// them by id).
func sessionToOpen(f *chatFlags, store *agent.Store, root string) (string, error) {
	if f.resume != "" {
		if store == nil {
			return "", fmt.Errorf("--resume: no session store")
		}
		list, err := store.List()
		if err != nil {
			return "", err
		}
		for _, s := range list {
			if s.ID == f.resume {
				return s.ID, nil
			}
		}
		return "", fmt.Errorf("--resume: no stored session %q in %s (agent-lsp chat --list lists them)", f.resume, store.Dir())
	}
	if !f.cont {
		return "", nil
	}
	list, err := store.List()
	if err != nil {
		return "", err
	}
	for _, s := range list {
		if s.Workspace == root {
			return s.ID, nil
		}
	}
	return "", fmt.Errorf("--continue: no stored session of %s in %s (agent-lsp chat --list lists them)", root, store.Dir())
}

// writeSessions lists the stored sessions: this workspace's first, then
// the others with their workspace ("unknown" for sessions stored before
// it was recorded), most recently updated first in each part.
func writeSessions(w io.Writer, list []agent.SessionInfo, root string, now time.Time) {
	var here, other []agent.SessionInfo
	for _, s := range list {
		if s.Workspace == root {
			here = append(here, s)
		} else {
			other = append(other, s)
		}
	}
	if len(list) == 0 {
		fmt.Fprintln(w, "no stored sessions")
		return
	}
	if len(here) == 0 {
		fmt.Fprintf(w, "no stored session of %s\n", root)
	} else {
		fmt.Fprintf(w, "sessions of %s (--resume ID, or --continue for the first):\n", root)
		for _, s := range here {
			fmt.Fprintf(w, "  %s  %-14s %s\n", s.ID, ago(now, s.UpdatedAt), titleOrNone(s.Title))
		}
	}
	if len(other) > 0 {
		fmt.Fprintln(w, "other workspaces:")
		for _, s := range other {
			ws := s.Workspace
			if ws == "" {
				ws = "unknown workspace"
			}
			fmt.Fprintf(w, "  %s  %-14s %s  (%s)\n", s.ID, ago(now, s.UpdatedAt), titleOrNone(s.Title), ws)
		}
	}
}

func titleOrNone(t string) string {
	if t == "" {
		return "(no prompt yet)"
	}
	return t
}

// ago is an update time as a person reads it in a list.
func ago(now, t time.Time) string {
	d := now.Sub(t)
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return fmt.Sprintf("%d min ago", int(d/time.Minute))
	case d < 24*time.Hour:
		return fmt.Sprintf("%d h ago", int(d/time.Hour))
	case d < 7*24*time.Hour:
		return fmt.Sprintf("%d days ago", int(d/(24*time.Hour)))
	}
	return t.Local().Format("2006-01-02")
}

// listSessions is `agent-lsp chat --list`.
func listSessions(f *chatFlags, stdout, stderr io.Writer) int {
	store, err := openStore(f, zap.NewNop())
	if err == nil && store == nil {
		err = errors.New("--list: no session store (--no-save)")
	}
	if err != nil {
		fmt.Fprintf(stderr, "agent-lsp chat: %v\n", err)
		return 1
	}
	list, err := store.List()
	if err != nil {
		fmt.Fprintf(stderr, "agent-lsp chat: %v\n", err)
		return 1
	}
	writeSessions(stdout, list, workspaceRoot(f.dir), time.Now())
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

package main

import (
	"flag"
	"strings"
)

// worktreeFlag is --worktree [name]: set alone, a fresh name; with a
// value (--worktree=name, or --worktree name), that name.
type worktreeFlag struct {
	set  bool
	name string
}

func (w *worktreeFlag) String() string   { return w.name }
func (w *worktreeFlag) IsBoolFlag() bool { return true } // the name is optional
func (w *worktreeFlag) Set(v string) error {
	w.set = true
	if v != "true" {
		w.name = v
	}
	return nil
}

// value is the term.Options.Worktree of the flag: nil when not given.
func (w *worktreeFlag) value() *string {
	if !w.set {
		return nil
	}
	return &w.name
}

func registerWorktreeFlags(fs *flag.FlagSet, w *worktreeFlag, dir *string) {
	fs.Var(w, "worktree", "start the session in a new git worktree of the workspace's repository, on the branch agent-lsp/<name> (--worktree or --worktree=name)")
	fs.StringVar(dir, "worktree-dir", "", "where --worktree makes worktrees (default: beside the repository, in <repo>.worktrees)")
}

// joinWorktreeName lets `--worktree name` mean --worktree=name: a bool
// flag's value must otherwise be joined with '='; a next argument that
// is a flag is not a name.
func joinWorktreeName(args []string) []string {
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		if (a == "--worktree" || a == "-worktree") && i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
			out = append(out, a+"="+args[i+1])
			i++
			continue
		}
		if a == "--" {
			return append(out, args[i:]...)
		}
		out = append(out, a)
	}
	return out
}

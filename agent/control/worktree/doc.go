// Package worktree owns the git side of a session that runs in its own
// git worktree: finding the repository of the user's checkout, `git
// worktree add` on a new branch beside it, what the worktree changed
// against its base (for a hunk review), committing it and merging its
// branch into the user's checkout, and removing it.
//
// git runs as a child process under the caller's context, in its own
// process group (killed whole when the context ends), with the
// environment children get (tools.ChildEnviron) less every GIT_*
// variable that could point it elsewhere, and with the repository treated
// as hostile: a repository's configuration and hooks are the workspace's,
// so no git call made here runs anything they name (hooks, fsmonitor,
// filter, merge and diff drivers, signing programs, editors, pagers, any
// transport). See hostile.go.
//
// It follows agent/control's row of the import flow; only the controller
// imports it.
package worktree

//go:build !unix

package worktree

import "os/exec"

// ownGroup: without process groups, the context kills git itself.
func ownGroup(*exec.Cmd) {}

func runOwned(cmd *exec.Cmd) error { return cmd.Run() }

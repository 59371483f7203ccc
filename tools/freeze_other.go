//go:build !linux

package tools

import "context"

// processHandle is a command's root process.
type processHandle struct{ pid int }

func openProcess(pid int) processHandle { return processHandle{pid: pid} }

func (processHandle) release() {}

// stoppedSet is what a freeze stopped: nothing here.
type stoppedSet struct{}

func (*stoppedSet) resume() {}

// stopTrees stops nothing: this platform has no OS sandbox, so a command
// may already write anywhere the user can, and pausing it during an edit
// would protect nothing (the Linux sandbox is what makes it worth it).
func stopTrees(context.Context, []*commandRoot) (*stoppedSet, error) { return &stoppedSet{}, nil }

package mcp

import (
	"context"
	"os/exec"

	"go.uber.org/zap"

	"github.com/agent-lsp/agent-lsp/tools/sandbox"
)

// containTree puts a stdio server's whole process tree in a PID namespace
// of its own (sandbox.ContainTree): when the daemon dies, even by
// kill -9, the death signal kills the namespace's init, and the kernel
// then kills every process left in it, daemons the server started with
// setsid included, which neither the death signal (it reaches only the
// server) nor the process-group kill of an orderly Close (setsid leaves
// the group) reach. The server is otherwise unconfined. The result is
// what to call once the process has started; where the machine has no
// such namespace the server runs as before, and the manager says so once.
func (s *server) containTree(ctx context.Context, cmd *exec.Cmd) (started func()) {
	started, err := sandbox.ContainTree(ctx, cmd)
	if err != nil {
		s.m.warnUncontained.Do(func() {
			s.log.Warn("MCP servers' process trees are not contained: what a server starts with setsid may outlive the daemon", zap.Error(err))
		})
		return func() {}
	}
	return started
}

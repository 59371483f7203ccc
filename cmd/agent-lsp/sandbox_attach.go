package main

import (
	"context"
	"io"
	"os/signal"
	"syscall"

	"github.com/agent-lsp/agent-lsp/tools/sandbox"
)

// runSandboxAttach is the stub an ACP client's terminal runs for a
// command the agent hands it (`agent-lsp __sandbox-attach <socket> <token>
// <pid>`): it takes the command from the agent and runs it in the agent's
// sandbox, with the agent's scrubbed environment, the one the client gave
// this process being dropped. It holds no secret, so it does not make
// itself non-dumpable as the agent does (the agent's launcher setup is
// then the same as for the agent's own commands). A signal that ends the
// terminal (SIGTERM, SIGHUP, Ctrl-C's SIGINT) kills the command first.
func runSandboxAttach(args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT)
	defer stop()
	return sandbox.RunAttached(ctx, args, stdout, stderr)
}

// isSandboxAttach reports whether this process was started as the stub.
func isSandboxAttach(args []string) bool { return len(args) > 1 && args[1] == sandbox.AttachArg }

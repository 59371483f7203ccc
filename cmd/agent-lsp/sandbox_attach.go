package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/agent-lsp/agent-lsp/tools/procenv"
	"github.com/agent-lsp/agent-lsp/tools/sandbox"
)

// runSandboxAttach is the stub an ACP client's terminal runs for a
// command the agent hands it (`agent-lsp __sandbox-attach <socket> <pid>`,
// the token in $AGENT_LSP_ATTACH_TOKEN): it takes the command from the agent and runs it in the agent's
// sandbox, with the agent's scrubbed environment. A signal that ends the
// terminal (SIGTERM, SIGHUP, Ctrl-C's SIGINT) kills the command first.
//
// The environment the client started it with is of no use to it and holds
// the user's credentials: it is dropped, wiped from the start-up block
// (/proc/<pid>/environ) and the stub is non-dumpable, as the agent is, so
// that a command (whose parent the stub is, when there is no PID
// namespace) cannot read it there.
func runSandboxAttach(args []string, stdout, stderr io.Writer) int {
	token := os.Getenv(sandbox.AttachTokenEnv)
	if err := dropEnvironment(); err != nil {
		fmt.Fprintf(stderr, "agent-lsp sandbox stub: %v\n", err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT)
	defer stop()
	return sandbox.RunAttached(ctx, args, token, stdout, stderr)
}

// dropEnvironment empties this process's environment, everywhere it shows.
func dropEnvironment() error {
	var names []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		names = append(names, name)
	}
	err := errors.Join(procenv.Protect(), procenv.Wipe(names))
	os.Clearenv()
	return err
}

// isSandboxAttach reports whether this process was started as the stub.
func isSandboxAttach(args []string) bool { return len(args) > 1 && args[1] == sandbox.AttachArg }

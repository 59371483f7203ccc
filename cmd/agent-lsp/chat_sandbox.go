package main

import (
	"fmt"
	"io"
	"os"

	"go.uber.org/zap"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/tools"
	"github.com/agent-lsp/agent-lsp/tools/sandbox"
)

// envForceNoSandbox makes the chat behave as on a kernel without Landlock
// (the fallback path, for tests and for trying it out).
const envForceNoSandbox = "AGENT_LSP_SANDBOX_UNAVAILABLE"

// openSandbox sets up the command sandbox for the workspace and says on
// progress, once, when the one asked for is not there.
func openSandbox(f *chatFlags, ws *tools.Workspace, store *agent.Store, progress io.Writer, log *zap.Logger) (*sandbox.Sandbox, error) {
	var hidden []string
	if store != nil {
		hidden = append(hidden, store.Dir())
	}
	st := f.sandbox
	st.HiddenPaths = append(append([]string(nil), st.HiddenPaths...), hidden...)
	st.ForceUnavailable = os.Getenv(envForceNoSandbox) == "1"
	box, err := sandbox.New(st, ws.Roots())
	if err != nil {
		return nil, err
	}
	// Checked at the first command (Status waits), not before the first
	// prompt; said here once known.
	box.OnKnown(func(status sandbox.Status) {
		log.Info("sandbox", zap.String("status", status.Summary()))
		if status.Mode != sandbox.ModeOff && !status.Active {
			fmt.Fprintln(progress, "agent-lsp: "+status.Summary())
		}
	})
	return box, nil
}

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
	box, err := sandbox.New(sandbox.Settings{
		Mode: f.sandboxMode, Network: f.sandboxNetwork, WritableDirs: f.sandboxWritable, HiddenPaths: hidden,
		ForceUnavailable: os.Getenv(envForceNoSandbox) == "1",
	}, ws.Roots())
	if err != nil {
		return nil, err
	}
	st := box.Status()
	log.Info("sandbox", zap.String("status", st.Summary()))
	if st.Mode != sandbox.ModeOff && !st.Active {
		fmt.Fprintln(progress, "agent-lsp: "+st.Summary())
	}
	return box, nil
}

package term

import (
	"fmt"
	"io"

	"go.uber.org/zap"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/agent/world"
	"github.com/agent-lsp/agent-lsp/tools"
	"github.com/agent-lsp/agent-lsp/tools/sandbox"
)

// openSandbox sets up the command sandbox for the workspace, hiding the
// session store from commands, and says on progress, once, when the one
// asked for is not there.
func openSandbox(o Options, ws *tools.Workspace, store *agent.Store, progress io.Writer) (*sandbox.Sandbox, error) {
	log := o.Logger
	if log == nil {
		log = zap.NewNop()
	}
	box, err := world.OpenSandbox(o.Sandbox, store, ws, log)
	if err != nil {
		return nil, err
	}
	// Checked at the first command (Status waits), not before the first
	// prompt; said here once known.
	box.OnKnown(func(status sandbox.Status) {
		if status.Mode != sandbox.ModeOff && !status.Active {
			fmt.Fprintln(progress, "agent-lsp: "+status.Summary())
		}
	})
	return box, nil
}

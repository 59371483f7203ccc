package world

import (
	"slices"

	"go.uber.org/zap"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/tools"
	"github.com/agent-lsp/agent-lsp/tools/sandbox"
)

// OpenSandbox opens the OS sandbox of the commands run in ws, with the
// session store hidden from them (what the model said and what the tools
// read stay out of a command's reach; store may be nil), and logs what
// holds on this machine for this user once the sandbox has been checked.
func OpenSandbox(settings sandbox.Settings, store *agent.Store, ws *tools.Workspace, log *zap.Logger) (*sandbox.Sandbox, error) {
	if store != nil {
		settings.HiddenPaths = append(slices.Clone(settings.HiddenPaths), store.Dir())
	}
	box, err := sandbox.New(settings, ws.Roots())
	if err != nil {
		return nil, err
	}
	// Checked lazily (at the first command, or when a front end starts
	// the check): logged once known, never waited for here.
	box.OnKnown(func(st sandbox.Status) { log.Info("sandbox", zap.String("status", st.Summary())) })
	return box, nil
}

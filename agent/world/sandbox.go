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
// holds on this machine for this user.
func OpenSandbox(settings sandbox.Settings, store *agent.Store, ws *tools.Workspace, log *zap.Logger) (*sandbox.Sandbox, error) {
	if store != nil {
		settings.HiddenPaths = append(slices.Clone(settings.HiddenPaths), store.Dir())
	}
	box, err := sandbox.New(settings, ws.Roots())
	if err != nil {
		return nil, err
	}
	log.Info("sandbox", zap.String("status", box.Status().Summary()))
	return box, nil
}

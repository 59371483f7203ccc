package term

import (
	"fmt"
	"io"

	"go.uber.org/zap"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/tools"
	"github.com/agent-lsp/agent-lsp/tools/sandbox"
)

// openSandbox sets up the command sandbox for the workspace, hiding the
// session store from commands, and says on progress, once, when the one
// asked for is not there.
func openSandbox(o Options, ws *tools.Workspace, store *agent.Store, progress io.Writer) (*sandbox.Sandbox, error) {
	st := o.Sandbox
	st.HiddenPaths = append([]string(nil), st.HiddenPaths...)
	if store != nil {
		st.HiddenPaths = append(st.HiddenPaths, store.Dir())
	}
	box, err := sandbox.New(st, ws.Roots())
	if err != nil {
		return nil, err
	}
	status := box.Status()
	if o.Logger != nil {
		o.Logger.Info("sandbox", zap.String("status", status.Summary()))
	}
	if status.Mode != sandbox.ModeOff && !status.Active {
		fmt.Fprintln(progress, "agent-lsp: "+status.Summary())
	}
	return box, nil
}

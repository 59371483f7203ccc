package world

import (
	"go.uber.org/zap"

	"github.com/agent-lsp/agent-lsp/hooks"
	"github.com/agent-lsp/agent-lsp/permission"
	"github.com/agent-lsp/agent-lsp/tools"
)

// trustKindHooks is the kind of a workspace's hooks in the store of
// trusted workspace files.
const trustKindHooks = "hooks"

// Hooks is a session's hooks in ws: the user's (user), and ws's
// .agents/settings.json ones, which run once the user trusted them as
// they are (in rules' store of trusted workspace files; nil rules: for
// this run only). runner runs them (ours, in the OS sandbox); notice
// tells the user of a hook's failure. nil when there are neither.
func Hooks(user hooks.Config, ws *tools.Workspace, runner tools.CommandRunner, rules *permission.RuleFiles,
	notice func(string), log *zap.Logger) *hooks.Runner {
	w := hooks.ReadWorkspace(ws)
	if len(user) == 0 && w.Config == nil && w.Err == nil {
		return nil
	}
	root := ws.Roots()[0]
	r := hooks.NewRunner(user, root, runner, log)
	r.Notice = notice
	trusted := false
	var trust func(string) error
	if rules != nil && w.Hash != "" {
		var err error
		if trusted, err = rules.WorkspaceFileTrusted(trustKindHooks, root, w.Hash); err != nil {
			log.Warn("the workspace's hooks: trust store", zap.Error(err))
		}
		trust = func(hash string) error { return rules.TrustWorkspaceFile(trustKindHooks, root, hash) }
	}
	return r.WithWorkspace(w, trusted, trust)
}

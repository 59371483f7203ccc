package world

import (
	"go.uber.org/zap"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/permission"
)

// RuleFiles are the persistent permission rules of a front end: the
// user's file (userFile, "": <user config dir>/agent-lsp/permissions.json)
// and the trust of workspace rules files kept in stateDir ("": the
// user's state directory; none there: trust lasts this run).
func RuleFiles(userFile, stateDir string, log *zap.Logger) *permission.RuleFiles {
	if userFile == "" {
		f, err := permission.DefaultRulesFile()
		if err != nil {
			log.Warn("no user config directory: no user permission rules", zap.Error(err))
		}
		userFile = f
	}
	if stateDir == "" {
		d, err := agent.DefaultStateDir()
		if err != nil {
			log.Warn("no state directory: a trusted workspace rules file is trusted for this run only", zap.Error(err))
		}
		stateDir = d
	}
	return permission.NewRuleFiles(userFile, stateDir)
}

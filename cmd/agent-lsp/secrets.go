package main

import (
	"errors"
	"strings"

	"go.uber.org/zap"

	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/tools"
	"github.com/agent-lsp/agent-lsp/tools/procenv"
)

// The binary's own secrets stay its own (see tools/env_vault.go): main
// makes the process non-dumpable before anything else runs, and each front
// end hides the credentials it may read as soon as its flags are known,
// before any child exists. From then on, credentials are read through
// secretGetenv, and what leaves the process (logs, recordings, the raw
// dump, session files, tool results) passes tools.RedactSecrets.

// protectErr is what procenv.Protect reported in main; the front ends log
// it once they have a logger.
var protectErr error

// protectProcess hardens the process; main calls it first thing.
func protectProcess() { protectErr = procenv.Protect() }

// hideSecrets takes out of the environment (and out of the start-up block
// /proc/<pid>/environ shows) the configured key variable by name, whatever
// its name, every preset's key variable (a /model switch may read it), and
// every variable whose name or value looks secret (tools.IsSecretEnv).
func hideSecrets(cfg provider.Config, log *zap.Logger) {
	names := []string{cfg.APIKeyEnv}
	for _, p := range provider.DefaultPresets() {
		names = append(names, p.APIKeyEnv)
	}
	names = keyVariables(names)
	err := errors.Join(protectErr, tools.HideEnv(names...), tools.HideSecretLookingEnv())
	if err != nil {
		log.Warn("the daemon's own environment may still show its secrets to a process allowed to read it", zap.Error(err))
	}
}

// keyVariables drops the names that mean "no key".
func keyVariables(names []string) []string {
	out := names[:0]
	for _, n := range names {
		if n = strings.TrimSpace(n); n != "" && !strings.EqualFold(n, "none") {
			out = append(out, n)
		}
	}
	return out
}

// secretGetenv reads a variable the configuration names as a credential
// (a provider's key, an MCP entry's ${VAR}) and hides it from then on: no
// child started later sees it, whatever its name.
func secretGetenv(name string) string {
	_ = tools.HideEnv(name) // a failed wipe of the start-up block was logged by hideSecrets
	return tools.Getenv(name)
}

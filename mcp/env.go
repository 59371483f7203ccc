package mcp

import (
	"os"
	"sort"
	"strings"

	"github.com/agent-lsp/agent-lsp/tools"
)

// The agent's own credentials (model API keys and the like) must not reach
// a server the user did not hand them to: an MCP server is third-party code.
// A child gets the daemon's environment minus every variable whose name says
// or value says it holds a secret (the same rule as run_bash), plus the variables its
// configuration sets explicitly, which are kept even when they are tokens:
// the user gave them to that server on purpose.

// childEnv is environ without secrets, with extra set on top.
func childEnv(environ []string, extra map[string]string) []string {
	out := make([]string, 0, len(environ)+len(extra))
	for _, kv := range environ {
		name, value, _ := strings.Cut(kv, "=")
		if _, overridden := extra[name]; overridden || !tools.IsChildSafeEnv(name, value) {
			continue
		}
		out = append(out, kv)
	}
	names := make([]string, 0, len(extra))
	for k := range extra {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		out = append(out, k+"="+extra[k])
	}
	return out
}

// serverEnv is the environment of a stdio server's process.
func serverEnv(cfg ServerConfig) []string { return childEnv(os.Environ(), cfg.Env) }

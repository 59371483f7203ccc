package mcp

import (
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agent-lsp/agent-lsp/tools"
)

// An MCP tool may be left out of a request until tool_search finds it
// (tools/tool_search.go), unless it is pinned: its server's entry says
// "eager": true, or the tool asks to be always loaded in its _meta.

// alwaysLoadMeta is the _meta key by which a server asks that one of its
// tools be always sent whole (Claude Code reads the same key).
const alwaysLoadMeta = "anthropic/alwaysLoad"

var _ tools.Deferrable = (*toolAdapter)(nil)

// Deferrable implements tools.Deferrable.
func (a *toolAdapter) Deferrable() bool { return !a.pinned }

// alwaysLoad reports whether the tool's _meta asks to be always loaded.
func alwaysLoad(t *sdk.Tool) bool {
	v, ok := t.Meta[alwaysLoadMeta].(bool)
	return ok && v
}

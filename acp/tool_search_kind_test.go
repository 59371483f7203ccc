package acp

import (
	"encoding/json"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agent-lsp/agent-lsp/tools"
)

// tool_search is shown as a search, titled by its query.
func TestToolSearchIsASearch(t *testing.T) {
	if k := kindOf(tools.ToolSearchName); k != sdk.ToolKindSearch {
		t.Errorf("kind of tool_search = %q, want %q", k, sdk.ToolKindSearch)
	}
	if title, _ := describeCall(nil, tools.ToolSearchName, json.RawMessage(`{"query":"create github issue"}`)); title != `tool_search "create github issue"` {
		t.Errorf("title = %q", title)
	}
}

package connect_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/provider/connect"
)

// Both dialects write a history's long texts (an answer, its reasoning, a
// tool result) whole into the body, though a chunk at a time.
func TestDialectsWriteLongTextsWhole(t *testing.T) {
	long := strings.Repeat("a long answer <&> \"é\" \u2028\n", 8_000)
	req := provider.Request{Model: "m", MaxTokens: 100, Messages: []provider.Message{
		{Role: provider.RoleSystem, Text: "sys " + long},
		{Role: provider.RoleUser, Text: "go"},
		{Role: provider.RoleAssistant, Text: "text " + long, Reasoning: "thought " + long, ReasoningSignature: "sig",
			ToolCalls: []provider.ToolCall{{ID: "c1", Name: "read_file", Arguments: `{"path":"a"}`}}},
		{Role: provider.RoleTool, ToolCallID: "c1", Text: "result " + long},
	}, Tools: []provider.ToolSpec{{Name: "read_file", Schema: json.RawMessage(`{"type":"object"}`)}}}
	for _, dialect := range dialects {
		t.Run(dialect, func(t *testing.T) {
			d, err := connect.DialectFor(provider.DefaultConfig(dialect))
			if err != nil {
				t.Fatal(err)
			}
			body, err := d.Encode(req)
			if err != nil {
				t.Fatal(err)
			}
			var strs []string
			var walk func(v any)
			walk = func(v any) {
				switch v := v.(type) {
				case string:
					strs = append(strs, v)
				case []any:
					for _, e := range v {
						walk(e)
					}
				case map[string]any:
					for _, e := range v {
						walk(e)
					}
				}
			}
			var v any
			if err := json.Unmarshal(body, &v); err != nil {
				t.Fatalf("the body is not JSON: %v", err)
			}
			walk(v)
			for _, want := range []string{"sys ", "text ", "thought ", "result "} {
				found := false
				for _, s := range strs {
					found = found || s == want+long
				}
				if !found {
					t.Errorf("the body does not hold %q followed by the long text whole", want)
				}
			}
		})
	}
}

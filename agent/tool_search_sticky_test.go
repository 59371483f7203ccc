package agent_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/permission"
	"github.com/agent-lsp/agent-lsp/provider/anthropic"
	"github.com/agent-lsp/agent-lsp/provider/openai"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
	"github.com/agent-lsp/agent-lsp/tools"
)

// mountedTool stands for an MCP server's tool: deferrable.
type mountedTool struct{ name string }

func (m mountedTool) Name() string        { return m.name }
func (m mountedTool) Description() string { return "A mounted server's tool, " + m.name + "." }
func (m mountedTool) Schema() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"}}}`)
}
func (m mountedTool) Deferrable() bool { return true }
func (m mountedTool) Describe(context.Context, json.RawMessage, *tools.Env) (permission.Action, error) {
	return permission.Action{Tool: m.name}, nil
}
func (m mountedTool) Run(context.Context, json.RawMessage, *tools.Env) (tools.Result, error) {
	return tools.Result{Output: m.name + " ran"}, nil
}

// TestToolSearchDecisionDoesNotFlip: a session whose mounted tools move
// around the threshold (a server adding and dropping a tool) keeps
// deferring them behind tool_search until they fall to 80% of it, so its
// requests keep one tool list and the prefix cache keeps holding it; it
// defers again only past the threshold. Both dialects, against the strict
// fake and its prefix cache.
func TestToolSearchDecisionDoesNotFlip(t *testing.T) {
	// The mounted tools before each prompt, and whether its request defers
	// them: past 20 it starts, at 16 (80%) it stops.
	steps := []struct {
		mounted int
		defers  bool
	}{{21, true}, {20, true}, {21, true}, {19, true}, {17, true}, {16, false}, {17, false}, {20, false}, {21, true}}
	for _, d := range []string{openai.Name, anthropic.Name} {
		t.Run(d, func(t *testing.T) {
			var script providertest.Script
			for i := range steps {
				script = append(script, providertest.Turn{Text: fmt.Sprintf("Answer %d.", i+1)})
			}
			srv := providertest.NewServer(t, script, providertest.WithSeed(31), providertest.WithPrefixCache(providertest.NewPrefixCache()))
			reg := tools.NewRegistry()
			if err := tools.RegisterBuiltins(reg); err != nil {
				t.Fatal(err)
			}
			s := sessionWith(t, d, srv, t.TempDir(), func(c *agent.Config) { c.Tools = reg })
			mounted := 0
			for i, st := range steps {
				for ; mounted < st.mounted; mounted++ {
					if err := reg.Add(mountedTool{name: fmt.Sprintf("mcp__srv__tool_%02d", mounted)}); err != nil {
						t.Fatal(err)
					}
				}
				for ; mounted > st.mounted; mounted-- {
					reg.Remove(fmt.Sprintf("mcp__srv__tool_%02d", mounted-1))
				}
				if o := s.Prompt(t.Context(), fmt.Sprintf("Question %d.", i+1), nil); o.StopReason != agent.StopEndTurn {
					t.Fatalf("prompt %d: %+v; refused: %s", i+1, o, srv.Requests()[len(srv.Requests())-1].Rejected)
				}
			}
			reqs := srv.Requests()
			var first []string
			for i, st := range steps {
				names := sentToolNames(t, reqs[i].Body)
				if got := slices.Contains(names, tools.ToolSearchName); got != st.defers {
					t.Errorf("request %d with %d mounted tools: deferred %v, want %v (%d tools sent)", i+1, st.mounted, got, st.defers, len(names))
				}
				if i == 0 {
					first = names
				} else if i < 5 && !slices.Equal(names, first) {
					t.Errorf("request %d's tools changed while the session defers: %v, was %v", i+1, names, first)
				}
				t.Logf("%s: request %d: %d mounted, %d tools sent, %d of %d prompt tokens cached", d, i+1, st.mounted, len(names), reqs[i].CachedTokens, reqs[i].PromptTokens)
			}
		})
	}
}

// sentToolNames are the names of a request's tools, in either dialect.
func sentToolNames(t *testing.T, body []byte) []string {
	t.Helper()
	var req struct {
		Tools []struct {
			Name     string `json:"name"`
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatalf("request body: %v", err)
	}
	var out []string
	for _, tl := range req.Tools {
		out = append(out, tl.Name+tl.Function.Name)
	}
	return out
}

package toolsearch

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

// The session near the threshold: 20 prompts while a mounted server's tool
// list moves between 21 tools (past tool search's threshold of 20) and 20
// (at it), as a server that adds and drops a tool does. Each prompt is a
// read_file round and an answer, against the strict fake's prefix cache.

// nearThresholdPrompts is how many prompts the session runs.
const nearThresholdPrompts = 20

// serverTool is one tool of the mounted server: deferrable, as an MCP
// tool nothing pins is (mcp's adapter implements tools.Deferrable alike).
type serverTool struct{ name string }

func (s serverTool) Name() string { return s.name }
func (s serverTool) Description() string {
	return "Looks up records of the billing system by " + s.name + "; returns them as JSON lines."
}
func (s serverTool) Schema() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{"filter":{"type":"string","description":"Which records"}},"required":["filter"]}`)
}
func (s serverTool) Deferrable() bool { return true }
func (s serverTool) Describe(context.Context, json.RawMessage, *tools.Env) (permission.Action, error) {
	return permission.Action{Tool: s.name, ReadOnly: true}, nil
}
func (s serverTool) Run(context.Context, json.RawMessage, *tools.Env) (tools.Result, error) {
	return tools.Result{Output: "[]"}, nil
}

// nearThresholdResult is one dialect's run.
type nearThresholdResult struct {
	requests, flips int // flips: requests whose deferral differs from the one before
	prompt, cached  int
}

func (r nearThresholdResult) share() float64 { return float64(r.cached) / float64(max(r.prompt, 1)) }

func runNearThreshold(t *testing.T, dialect string) nearThresholdResult {
	t.Helper()
	srv := providertest.NewServer(t, roundsScript(nearThresholdPrompts), providertest.WithSeed(31), providertest.WithPrefixCache(providertest.NewPrefixCache()))
	root := javaProject(t)
	ws, err := tools.NewWorkspace(root)
	if err != nil {
		t.Fatal(err)
	}
	reg := tools.NewRegistry()
	if err := tools.RegisterBuiltins(reg); err != nil {
		t.Fatal(err)
	}
	for i := range 20 {
		if err := reg.Add(serverTool{name: fmt.Sprintf("mcp__billing__tool_%02d", i)}); err != nil {
			t.Fatal(err)
		}
	}
	s := agent.NewSession(agent.Config{
		Provider: httpProvider(t, dialect, srv.OpenAIBaseURL(), srv.AnthropicBaseURL()), Model: "deepseek-flash", MaxTokens: 4096,
		Tools: reg, Env: &tools.Env{Workspace: ws, Docs: &tools.DiskDocuments{Workspace: ws}},
		Gate: permission.NewPolicy(permission.AutoApprover{}),
	}, agent.SystemPrompt(ws, "linux", "/bin/bash"))
	const moving = "mcp__billing__tool_20"
	for i := range nearThresholdPrompts {
		if i%2 == 0 {
			if err := reg.Add(serverTool{name: moving}); err != nil {
				t.Fatal(err)
			}
		} else {
			reg.Remove(moving)
		}
		o := s.Prompt(t.Context(), fmt.Sprintf("Question %d: what is in %s?", i+1, javaFiles[i%len(javaFiles)]), nil)
		if o.StopReason != agent.StopEndTurn {
			t.Fatalf("%s: prompt %d: %+v", dialect, i+1, o)
		}
	}
	var res nearThresholdResult
	prev := false
	for i, rq := range srv.Requests() {
		if rq.Rejected != "" {
			t.Fatalf("%s: request refused: %s", dialect, rq.Rejected)
		}
		var body sentTools
		if err := json.Unmarshal(rq.Body, &body); err != nil {
			t.Fatal(err)
		}
		deferred := slices.ContainsFunc(body.Tools, func(tl sentTool) bool { return tl.name() == tools.ToolSearchName })
		if i > 0 && deferred != prev {
			res.flips++
		}
		prev = deferred
		res.requests++
	}
	tot := s.Totals()
	res.prompt, res.cached = tot.Usage.PromptTokens, tot.Usage.CachedTokens
	return res
}

// sentTools is a request's tool list in either dialect.
type sentTools struct {
	Tools []sentTool `json:"tools"`
}

type sentTool struct {
	Name     string `json:"name"` // Messages
	Function struct {
		Name string `json:"name"`
	} `json:"function"` // Chat Completions
}

func (s sentTool) name() string { return s.Name + s.Function.Name }

// TestNearThresholdKeepsDeferring: the session above does not flip
// between sending every tool and tool_search (the report measures what
// that keeps of the prompt cache).
func TestNearThresholdKeepsDeferring(t *testing.T) {
	for _, d := range []string{openai.Name, anthropic.Name} {
		if r := runNearThreshold(t, d); r.flips != 0 {
			t.Errorf("%s: %d of %d requests flipped the tool list; cached share %.3f", d, r.flips, r.requests, r.share())
		}
	}
}

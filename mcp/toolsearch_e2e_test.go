package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/mcp/demo"
	"github.com/agent-lsp/agent-lsp/permission"
	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/provider/anthropic"
	"github.com/agent-lsp/agent-lsp/provider/openai"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
	"github.com/agent-lsp/agent-lsp/tools"
)

// todayFirstRequest is the first request of a session with the seven
// built-in tools before tool search (issue 29): 6.2 KB. With any number of
// MCP tools mounted, the first request may be at most 1.5 times that.
const todayFirstRequest = 6.2 * 1024

// mount120 mounts the real npm servers everything (16 tools) and
// filesystem (14) and the catalog (90 generated tools) beside the
// built-ins: 120 MCP tools. eager pins them all (no tool search).
func mount120(t *testing.T, root string, eager bool) *tools.Registry {
	t.Helper()
	everyNode, everyArgs := npmServer(t, "server-everything", "stdio")
	fsNode, fsArgs := npmServer(t, "server-filesystem", root)
	m, reg := newTestManager(t, root)
	if err := tools.RegisterBuiltins(reg); err != nil {
		t.Fatal(err)
	}
	startAndWait(t, m,
		ServerConfig{Name: "every", Type: TypeStdio, Command: everyNode, Args: everyArgs, Eager: eager},
		ServerConfig{Name: "fs", Type: TypeStdio, Command: fsNode, Args: fsArgs, Eager: eager},
		ServerConfig{Name: "catalog", Type: TypeStdio, Command: os.Args[0], Env: map[string]string{testServerEnv: "catalog"}, Eager: eager},
	)
	mcpTools := 0
	for _, tl := range reg.Tools() {
		if _, ok := ServerOf(tl); ok {
			mcpTools++
		}
	}
	if mcpTools != 120 {
		t.Fatalf("%d MCP tools mounted, want 120 (catalog %d); status %+v", mcpTools, demo.CatalogSize, m.Status())
	}
	return reg
}

// toolNames are the names of a request's tools, in order, in either
// dialect (none for a body that is not a request: the checks that call it
// run on the fake's goroutines, where a test may not stop).
func toolNames(t *testing.T, body []byte) []string {
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
		t.Errorf("request body: %v", err)
		return nil
	}
	var out []string
	for _, tl := range req.Tools {
		out = append(out, tl.Name+tl.Function.Name)
	}
	return out
}

func newToolSearchSession(t *testing.T, dialect string, srv *providertest.Server, reg *tools.Registry, root string, store *agent.Store) agent.Config {
	t.Helper()
	opts := provider.HTTPOptions{APIKey: "test-key", Client: srv.Client(), Dialect: openai.NewDialect(), BaseURL: srv.OpenAIBaseURL()}
	if dialect == anthropic.Name {
		opts.Dialect, opts.BaseURL = anthropic.NewDialect(), srv.AnthropicBaseURL()
	}
	p, err := provider.NewHTTP(opts)
	if err != nil {
		t.Fatal(err)
	}
	ws, err := tools.NewWorkspace(root)
	if err != nil {
		t.Fatal(err)
	}
	return agent.Config{Provider: p, Model: "deepseek-flash", MaxTokens: 4096, Tools: reg,
		Env:  &tools.Env{Workspace: ws, Docs: &tools.DiskDocuments{Workspace: ws}},
		Gate: permission.NewPolicy(askedTools{t}), Store: store}
}

// askedTools allows what it is asked, once, and fails the test when it is
// asked about tool_search, which is read-only and runs without a question.
type askedTools struct{ t *testing.T }

func (a askedTools) Approve(_ context.Context, act permission.Action, _ bool) (permission.Decision, error) {
	if act.Tool == tools.ToolSearchName {
		a.t.Errorf("tool_search was put to the user: %+v", act)
	}
	return permission.AllowOnce, nil
}

const toolSearchPrompt = "Which invoices are overdue in the billing system?"

// firstRequestBytes is the body of a session's first request with reg's
// tools, against a fake of its own.
func firstRequestBytes(t *testing.T, dialect string, reg *tools.Registry, root string) int {
	t.Helper()
	return len(mustFirstBody(t, dialect, reg, root))
}

// TestToolSearchWith120MCPTools is issue 29's acceptance run: with 120 MCP
// tools mounted the first request carries the built-ins and tool_search
// only (at most 1.5x today's 6.2 KB); the model finds list_invoices through
// tool_search and calls it; the found tool is appended after the tools of
// the first request and stays offered, also after a resume; the cached
// share of the requests after the first stays at least 0.85.
func TestToolSearchWith120MCPTools(t *testing.T) {
	root := t.TempDir()
	reg := mount120(t, root, false)
	builtins := tools.NewRegistry()
	if err := tools.RegisterBuiltins(builtins); err != nil {
		t.Fatal(err)
	}
	const wanted = "mcp__catalog__list_invoices"
	for _, d := range []string{openai.Name, anthropic.Name} {
		t.Run(d, func(t *testing.T) {
			var srv *providertest.Server
			firstTools := func() []string { return toolNames(t, srv.Requests()[0].Body) }
			script := providertest.Script{
				{ToolCalls: []providertest.Call{{Name: tools.ToolSearchName, Arguments: `{"query":"list overdue invoices billing"}`}}},
				{Check: func(r providertest.Received) error {
					first, got := firstTools(), toolNames(t, r.Body)
					if len(got) <= len(first) || !slices.Equal(got[:len(first)], first) || !slices.Contains(got[len(first):], wanted) {
						return fmt.Errorf("tools after the search %v: want the first request's %v with %s appended", got, first, wanted)
					}
					return nil
				}, ToolCalls: []providertest.Call{{Name: wanted, Arguments: `{"filter":"due_date:<today status:unpaid"}`}}},
				{Text: "Two invoices are overdue."},
			}
			// Later prompts use the found tool again: the requests a
			// cache sees after the search.
			const later = 6
			for i := range later {
				script = append(script,
					providertest.Turn{ToolCalls: []providertest.Call{{Name: wanted, Arguments: fmt.Sprintf(`{"filter":"page %d"}`, i)}}},
					providertest.Turn{Text: fmt.Sprintf("Page %d has no more overdue invoices.", i)})
			}
			srv = providertest.NewServer(t, script, providertest.WithSeed(29), providertest.WithPrefixCache(providertest.NewPrefixCache()))
			store, err := agent.NewStore(t.TempDir(), nil)
			if err != nil {
				t.Fatal(err)
			}
			cfg := newToolSearchSession(t, d, srv, reg, root, store)
			s := agent.NewSession(cfg, agent.SystemPrompt(cfg.Env.Workspace, "linux", "/bin/bash"))
			if o := s.Prompt(t.Context(), toolSearchPrompt, nil); o.StopReason != agent.StopEndTurn {
				t.Fatalf("prompt: %+v", o)
			}
			for i := range later {
				if o := s.Prompt(t.Context(), fmt.Sprintf("And page %d?", i), nil); o.StopReason != agent.StopEndTurn {
					t.Fatalf("prompt %d: %+v", i, o)
				}
			}
			reqs := srv.Requests()
			for i, rq := range reqs {
				if rq.Rejected != "" {
					t.Fatalf("request %d refused: %s", i, rq.Rejected)
				}
			}
			first := firstTools()
			if want := append(toolNames(t, mustFirstBody(t, d, builtins, root)), tools.ToolSearchName); !slices.Equal(first, want) {
				t.Errorf("first request's tools %v, want the built-ins and tool_search %v", first, want)
			}
			today, size := firstRequestBytes(t, d, builtins, root), len(reqs[0].Body)
			t.Logf("%s: first request %d bytes with 120 MCP tools behind tool_search; %d bytes with the built-ins alone (%.2fx)", d, size, today, float64(size)/float64(today))
			if float64(size) > 1.5*todayFirstRequest || float64(size) > 1.5*float64(today) {
				t.Errorf("first request %d bytes: over 1.5x today's (%d measured, 6.2 KB in issue 29)", size, today)
			}

			ran := 0
			for _, m := range s.History() {
				if m.Role == provider.RoleTool && strings.Contains(m.Text, "list_invoices done") {
					ran++
				}
			}
			if ran != 1+later {
				t.Errorf("list_invoices ran %d times, want %d", ran, 1+later)
			}
			last := toolNames(t, reqs[len(reqs)-1].Body)
			prompt, cached := 0, 0
			for _, rq := range reqs[1:] {
				prompt, cached = prompt+rq.PromptTokens, cached+rq.CachedTokens
			}
			share := float64(cached) / float64(prompt)
			t.Logf("%s: %d requests after the first: %d of %d prompt tokens cached (%.3f)", d, len(reqs)-1, cached, prompt, share)
			if share < 0.85 {
				t.Errorf("cached share after the first request %.3f, want ≥ 0.85", share)
			}

			// Resumed, the session offers the found tool in the same place.
			srv.Append(providertest.Turn{Check: func(r providertest.Received) error {
				if got := toolNames(t, r.Body); !slices.Equal(got, last) {
					return fmt.Errorf("resumed session's tools %v, want %v", got, last)
				}
				return nil
			}, Text: "Still two."})
			resumed, err := agent.ResumeSession(cfg, s.ID())
			if err != nil {
				t.Fatal(err)
			}
			if o := resumed.Prompt(t.Context(), "Still overdue?", nil); o.StopReason != agent.StopEndTurn {
				t.Fatalf("resumed prompt: %+v; last request refused: %s", o, srv.Requests()[len(srv.Requests())-1].Rejected)
			}
		})
	}
}

// mustFirstBody is the first request's body of a session with reg's tools.
func mustFirstBody(t *testing.T, dialect string, reg *tools.Registry, root string) []byte {
	t.Helper()
	srv := providertest.NewServer(t, providertest.Script{{Text: "ok"}}, providertest.WithSeed(1))
	cfg := newToolSearchSession(t, dialect, srv, reg, root, nil)
	s := agent.NewSession(cfg, agent.SystemPrompt(cfg.Env.Workspace, "linux", "/bin/bash"))
	if o := s.Prompt(t.Context(), toolSearchPrompt, nil); o.StopReason != agent.StopEndTurn {
		t.Fatalf("prompt: %+v", o)
	}
	return srv.Requests()[0].Body
}

// TestEagerAndAlwaysLoadPinTools: a server whose entry says "eager": true
// has every tool in every request, past the threshold too, and a tool whose
// _meta asks to be always loaded is never deferred.
func TestEagerAndAlwaysLoadPinTools(t *testing.T) {
	e, err := parseServer(".mcp.json", "catalog", json.RawMessage(`{"command":"x","eager":true}`))
	if err != nil || !e.raw.Eager {
		t.Fatalf(`"eager": true parsed as %+v, %v`, e.raw, err)
	}
	if _, err := parseServer(".mcp.json", "catalog", json.RawMessage(`{"command":"x","eager":"yes"}`)); err == nil || !strings.Contains(err.Error(), `"eager"`) {
		t.Errorf(`"eager": "yes" = %v, want an error naming the field`, err)
	}

	m, reg := newTestManager(t)
	startAndWait(t, m,
		ServerConfig{Name: "pinned", Type: TypeStdio, Command: os.Args[0], Env: map[string]string{testServerEnv: "catalog"}, Eager: true},
		ServerConfig{Name: "lazy", Type: TypeStdio, Command: os.Args[0], Env: map[string]string{testServerEnv: "catalog"}},
	)
	var offered []string
	for _, tl := range reg.Offer(reg.Tools(), nil) {
		offered = append(offered, tl.Name())
	}
	if !slices.Contains(offered, "mcp__pinned__create_invoice") || slices.Contains(offered, "mcp__lazy__create_invoice") ||
		!slices.Contains(offered, tools.ToolSearchName) || len(offered) != demo.CatalogSize+1 {
		t.Errorf("offered %d tools %v: want the eager server's %d and tool_search, none of the other's", len(offered), offered, demo.CatalogSize)
	}

	always := newToolAdapter(&server{cfg: ServerConfig{Name: "s"}}, "mcp__s__t", &sdk.Tool{Name: "t", Meta: sdk.Meta{"anthropic/alwaysLoad": true}})
	plain := newToolAdapter(&server{cfg: ServerConfig{Name: "s"}}, "mcp__s__u", &sdk.Tool{Name: "u"})
	if tools.IsDeferrable(always) || !tools.IsDeferrable(plain) {
		t.Errorf("deferrable: alwaysLoad %v, plain %v; want false, true", tools.IsDeferrable(always), tools.IsDeferrable(plain))
	}
}

func TestEagerFlag(t *testing.T) {
	cfgs, errs := parseFlags([]string{"eager:gh=npx -y server-github", "plain=npx -y server-x", "eager: npx -y server-y"}, "", func(string) string { return "" })
	if len(errs) != 0 || len(cfgs) != 3 {
		t.Fatalf("cfgs %+v errs %v", cfgs, errs)
	}
	for i, want := range []struct {
		name  string
		eager bool
	}{{"gh", true}, {"plain", false}, {"server-y", true}} {
		if cfgs[i].Name != want.name || cfgs[i].Eager != want.eager || cfgs[i].Command != "npx" {
			t.Errorf("--mcp #%d = %+v, want name %s eager %v", i+1, cfgs[i], want.name, want.eager)
		}
	}
}

package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/permission"
)

// remoteTool stands for an MCP tool: deferrable unless pinned.
type remoteTool struct {
	name, desc string
	pinned     bool
}

func (r remoteTool) Name() string        { return r.name }
func (r remoteTool) Description() string { return r.desc }
func (r remoteTool) Schema() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{}}`)
}
func (r remoteTool) Deferrable() bool { return !r.pinned }
func (r remoteTool) Describe(context.Context, json.RawMessage, *Env) (permission.Action, error) {
	return permission.Action{Tool: r.name}, nil
}
func (r remoteTool) Run(context.Context, json.RawMessage, *Env) (Result, error) {
	return Result{Output: r.name + " ran"}, nil
}

// registryWith is the built-ins and n generated remote tools, plus extra.
func registryWith(t *testing.T, n int, extra ...Tool) *Registry {
	t.Helper()
	r := NewRegistry()
	if err := RegisterBuiltins(r); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if err := r.Add(remoteTool{name: fmt.Sprintf("mcp__gen__tool_%02d", i), desc: fmt.Sprintf("Generated tool number %d.", i)}); err != nil {
			t.Fatal(err)
		}
	}
	for _, e := range extra {
		if err := r.Add(e); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

func names(ts []Tool) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.Name()
	}
	return out
}

func TestOfferBelowTheThresholdSendsEveryTool(t *testing.T) {
	r := registryWith(t, DeferToolCount)
	if got, want := names(r.Offer(r.Tools(), nil)), names(r.Tools()); !slices.Equal(got, want) {
		t.Errorf("offer = %v, want every tool %v", got, want)
	}
}

func TestOfferPastTheThresholdAppendsWhatWasFound(t *testing.T) {
	pinned := remoteTool{name: "mcp__eager__ping", desc: "Ping.", pinned: true}
	r := registryWith(t, DeferToolCount+1, pinned)
	var builtins []string
	for _, tool := range r.Tools() {
		if _, remote := tool.(remoteTool); !remote {
			builtins = append(builtins, tool.Name())
		}
	}

	first := names(r.Offer(r.Tools(), nil))
	want := append(slices.Clone(builtins), pinned.name, ToolSearchName)
	if !slices.Equal(first, want) {
		t.Fatalf("offer = %v, want %v", first, want)
	}
	found := []string{"mcp__gen__tool_07", "mcp__gen__tool_03", "mcp__gen__tool_07", "mcp__gone"}
	later := names(r.Offer(r.Tools(), found))
	want = append(want, "mcp__gen__tool_07", "mcp__gen__tool_03")
	if !slices.Equal(later, want) {
		t.Errorf("offer after finding %v = %v, want %v", found, later, want)
	}
}

func TestOfferPastTheSchemaBytes(t *testing.T) {
	big := remoteTool{name: "mcp__big__tool", desc: strings.Repeat("a long description ", DeferSchemaBytes/19+1)}
	r := registryWith(t, 0, big)
	if got := names(r.Offer(r.Tools(), nil)); slices.Contains(got, big.name) || !slices.Contains(got, ToolSearchName) {
		t.Errorf("one tool over %d bytes: offer = %v, want it deferred behind tool_search", DeferSchemaBytes, got)
	}
}

func TestToolSearchFindsByWordsAndReportsWhatItFound(t *testing.T) {
	r := registryWith(t, 30,
		remoteTool{name: "mcp__github__create_issue", desc: "Create a new issue in a GitHub repository."},
		remoteTool{name: "mcp__github__list_pull_requests", desc: "List the pull requests of a repository."},
		remoteTool{name: "mcp__jira__createTicket", desc: "Open a ticket in a Jira project."},
	)
	search, ok := r.Lookup(ToolSearchName)
	if !ok {
		t.Fatal("the registry has no tool_search")
	}
	var reported []string
	env := &Env{ToolsFound: func(n []string) { reported = append(reported, n...) }}
	res, err := search.Run(t.Context(), json.RawMessage(`{"query":"open an issue on github","limit":2}`), env)
	if err != nil {
		t.Fatal(err)
	}
	if len(reported) == 0 || reported[0] != "mcp__github__create_issue" {
		t.Fatalf("found %v, want mcp__github__create_issue first; output:\n%s", reported, res.Output)
	}
	if len(reported) > 2 {
		t.Errorf("limit 2, found %v", reported)
	}
	if !strings.Contains(res.Output, `"input_schema"`) || !strings.Contains(res.Output, "Create a new issue") {
		t.Errorf("output lacks the schema or description:\n%s", res.Output)
	}

	reported = nil
	if _, err := search.Run(t.Context(), json.RawMessage(`{"query":"create ticket"}`), env); err != nil {
		t.Fatal(err)
	}
	if len(reported) == 0 || reported[0] != "mcp__jira__createTicket" {
		t.Errorf("camelCase name: found %v, want mcp__jira__createTicket first", reported)
	}

	reported = nil
	res, err = search.Run(t.Context(), json.RawMessage(`{"query":"zebra"}`), env)
	if err != nil || len(reported) != 0 || !strings.Contains(res.Output, "mcp__github__create_issue") {
		t.Errorf("no match: reported %v, err %v, output %q (want the loadable names listed)", reported, err, res.Output)
	}
	if _, err := search.Run(t.Context(), json.RawMessage(`{"query":" "}`), env); err == nil {
		t.Errorf("an empty query must fail")
	}
}

func TestToolSearchIsReadOnlyAndLow(t *testing.T) {
	r := NewRegistry()
	search, _ := r.Lookup(ToolSearchName)
	if !IsReadOnly(search) {
		t.Errorf("tool_search must be read-only (a read-only mode offers it)")
	}
	a, err := search.Describe(t.Context(), json.RawMessage(`{"query":"x"}`), nil)
	if err != nil || a.Risk != permission.Low || !a.ReadOnly {
		t.Errorf("describe = %+v, %v", a, err)
	}
}

// TestCallingADeferredToolOffersIt: a deferred tool the model calls by name
// without a search is reported found, so the next request carries it.
func TestCallingADeferredToolOffersIt(t *testing.T) {
	r := registryWith(t, DeferToolCount+1)
	var found []string
	env := &Env{ToolsFound: func(n []string) { found = append(found, n...) }}
	out := r.Execute(t.Context(), env, []Call{{ID: "c1", Name: "mcp__gen__tool_05", Args: json.RawMessage(`{}`)}}, ExecOptions{})
	if out[0].Status != StatusCompleted || !slices.Equal(found, []string{"mcp__gen__tool_05"}) {
		t.Errorf("outcome %+v, found %v; want the call to run and its tool found", out[0], found)
	}
	if got := names(r.Offer(r.Tools(), found)); got[len(got)-1] != "mcp__gen__tool_05" {
		t.Errorf("offer after the call = %v, want the called tool last", got)
	}
}

// BenchmarkToolSearch120 is one search over 120 deferred tools: the index is
// built per search (the tool list changes as servers come and go), so this
// is the whole cost the model's call adds.
func BenchmarkToolSearch120(b *testing.B) {
	r := NewRegistry()
	for i := range 120 {
		desc := fmt.Sprintf("[MCP server s%d] Operation %d on the records of area %d: create, read, update or list them with filters and pages.", i%4, i, i%18)
		if err := r.Add(remoteTool{name: fmt.Sprintf("mcp__s%d__operation_%03d", i%4, i), desc: desc}); err != nil {
			b.Fatal(err)
		}
	}
	search, _ := r.Lookup(ToolSearchName)
	args := json.RawMessage(`{"query":"update records area 7 with filters"}`)
	env := &Env{ToolsFound: func([]string) {}}
	for b.Loop() {
		if _, err := search.Run(context.Background(), args, env); err != nil {
			b.Fatal(err)
		}
	}
}

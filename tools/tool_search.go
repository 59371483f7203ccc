package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/agent-lsp/agent-lsp/permission"
)

// Tool search (docs/protocol.md, "Tool search"): when the deferrable tools
// (MCP servers' tools that nothing pins) are many, a request does not carry
// their schemas. It carries tool_search instead, and every tool that
// tool_search found, appended after the others so that the request's
// cached prefix (the tool list comes first) stays as it was.

// ToolSearchName is the search tool's name, fixed (issue 29).
const ToolSearchName = "tool_search"

// The threshold past which the deferrable tools are deferred: more than
// DeferToolCount of them, or more than DeferSchemaBytes of their names,
// descriptions and schemas together.
const (
	DeferToolCount   = 20
	DeferSchemaBytes = 8 << 10
)

// How many tools one search returns: by default, and at most.
const (
	searchDefaultLimit = 5
	searchMaxLimit     = 10
)

// Deferrable is implemented by a tool that a request may leave out until
// tool_search finds it; Deferrable is false for one that is pinned (its
// server is "eager", or it asks to be always loaded).
type Deferrable interface {
	Deferrable() bool
}

// IsDeferrable reports whether t may be left out of a request.
func IsDeferrable(t Tool) bool {
	d, ok := t.(Deferrable)
	return ok && d.Deferrable()
}

// ToolsFoundSink receives the names of the tools a tool_search found; the
// agent session offers them from then on. It must return quickly.
type ToolsFoundSink func(names []string)

// deferrableSize is how many of ts are deferrable, and the bytes of their
// names, descriptions and schemas together.
func deferrableSize(ts []Tool) (n, size int) {
	for _, t := range ts {
		if IsDeferrable(t) {
			n++
			size += len(t.Name()) + len(t.Description()) + len(t.Schema())
		}
	}
	return n, size
}

// overThreshold reports whether the deferrable tools of ts are too many or
// too large to send whole.
func overThreshold(ts []Tool) bool {
	n, size := deferrableSize(ts)
	return n > DeferToolCount || size > DeferSchemaBytes
}

// Offer is what a request carries of ts (the tools a session's mode offers,
// in registration order), given the tools tool_search found so far in the
// session, in the order they were found. Below the threshold it is ts.
// Past it: every tool of ts that is not deferrable, in its order, then
// tool_search, then the found tools still in ts, in the order they were
// found: a later search only appends, so the earlier part of the list, and
// the prompt cache's prefix, stay as they were. A session's requests take
// OfferIn, which keeps the decision from flipping (tool_search_sticky.go).
func (r *Registry) Offer(ts []Tool, found []string) []Tool {
	return r.offer(ts, found, overThreshold(ts))
}

// offer is Offer with the decision made: deferring or not.
func (r *Registry) offer(ts []Tool, found []string, deferring bool) []Tool {
	if !deferring {
		return ts
	}
	out := make([]Tool, 0, len(ts))
	deferred := map[string]Tool{}
	for _, t := range ts {
		if IsDeferrable(t) {
			deferred[t.Name()] = t
		} else {
			out = append(out, t)
		}
	}
	out = append(out, toolSearch{reg: r})
	for _, name := range found {
		if t, ok := deferred[name]; ok {
			out = append(out, t)
			delete(deferred, name) // a name found twice is offered once
		}
	}
	return out
}

type toolSearchArgs struct {
	Query string `json:"query"`
	Limit int    `json:"limit,omitempty"`
}

// toolSearch is tool_search over the deferrable tools of reg.
type toolSearch struct{ reg *Registry }

var _ ReadOnlyTool = toolSearch{}

func (toolSearch) Name() string { return ToolSearchName }

func (toolSearch) Description() string {
	return "Search the tools that are available but not loaded yet (the MCP servers' tools) by keywords over their " +
		"names and descriptions, e.g. \"create github issue\" or a tool's exact name. Returns the best matches with " +
		"their descriptions and input schemas; every tool returned is loaded, so you can call it from your next step on. " +
		"Search before saying that no tool can do something."
}

func (toolSearch) Schema() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{` +
		`"query":{"type":"string","description":"Keywords, or a tool's name"},` +
		`"limit":{"type":"integer","minimum":1,"maximum":10,"description":"Most tools to return (default 5)"}},` +
		`"required":["query"],"additionalProperties":false}`)
}

// ReadOnly: a search changes nothing outside the session.
func (toolSearch) ReadOnly() bool { return true }

func parseToolSearch(raw json.RawMessage) (toolSearchArgs, error) {
	var a toolSearchArgs
	if err := decodeArgs(raw, &a); err != nil {
		return a, err
	}
	a.Query = strings.TrimSpace(a.Query)
	if a.Query == "" {
		return a, fmt.Errorf("query is required")
	}
	if a.Limit <= 0 {
		a.Limit = searchDefaultLimit
	}
	a.Limit = min(a.Limit, searchMaxLimit)
	return a, nil
}

func (toolSearch) Describe(_ context.Context, raw json.RawMessage, _ *Env) (permission.Action, error) {
	a, err := parseToolSearch(raw)
	if err != nil {
		return permission.Action{}, err
	}
	return permission.Action{Tool: ToolSearchName, Scope: ToolSearchName, Summary: "search tools: " + a.Query,
		Risk: permission.Low, ReadOnly: true}, nil
}

// foundTool is one match as the model reads it.
type foundTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"input_schema"`
}

func (s toolSearch) Run(_ context.Context, raw json.RawMessage, env *Env) (Result, error) {
	a, err := parseToolSearch(raw)
	if err != nil {
		return Result{}, err
	}
	var candidates []Tool
	for _, t := range s.reg.Tools() {
		if IsDeferrable(t) {
			candidates = append(candidates, t)
		}
	}
	ranked := rankTools(candidates, a.Query)
	if len(ranked) == 0 {
		names := make([]string, len(candidates))
		for i, t := range candidates {
			names[i] = t.Name()
		}
		slices.Sort(names)
		return Result{Output: fmt.Sprintf("No tool matches %q. The tools that can be loaded: %s",
			a.Query, strings.Join(names, ", "))}, nil
	}
	ranked = ranked[:min(len(ranked), a.Limit)]
	found := make([]foundTool, len(ranked))
	names := make([]string, len(ranked))
	for i, r := range ranked {
		found[i] = foundTool{Name: r.tool.Name(), Description: r.tool.Description(), InputSchema: r.tool.Schema()}
		names[i] = r.tool.Name()
	}
	if env != nil && env.ToolsFound != nil {
		env.ToolsFound(names)
	}
	out, err := json.MarshalIndent(found, "", " ")
	if err != nil {
		return Result{}, err
	}
	return Result{Output: fmt.Sprintf("%d tools loaded; call them by name:\n%s", len(found), out)}, nil
}

package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agent-lsp/agent-lsp/permission"
	"github.com/agent-lsp/agent-lsp/tools"
)

// How much of the arguments an approval prompt shows, in bytes.
const (
	maxArgsSummary = 200
	maxArgsCommand = 2000
)

// toolAdapter makes one MCP tool an ordinary tools.Tool: the agent loop,
// the permission policy and the compactor never learn it is remote.
type toolAdapter struct {
	srv         *server
	remote      string // the tool's name on the server
	exposed     string // mcp__<server>__<tool>
	description string
	schema      json.RawMessage
	destructive bool // the server says so; only ever raises the risk
	readOnly    bool // the server says so; never skips the question
	pinned      bool // sent whole in every request (deferrable.go)
	fingerprint string
	run         func(ctx context.Context, args json.RawMessage) (tools.Result, error)
}

var _ tools.Tool = (*toolAdapter)(nil)

func (a *toolAdapter) Name() string            { return a.exposed }
func (a *toolAdapter) Description() string     { return a.description }
func (a *toolAdapter) Schema() json.RawMessage { return a.schema }

// Describe asks for approval per exposed tool (never for the whole server:
// one server may offer a harmless lookup beside a delete). Hints come from
// an untrusted server: destructiveHint raises the risk to HIGH, readOnlyHint
// only keeps it at MEDIUM, and ReadOnly stays false so the policy still asks.
func (a *toolAdapter) Describe(_ context.Context, args json.RawMessage, _ *tools.Env) (permission.Action, error) {
	compact := compactJSON(args)
	act := permission.Action{
		Tool:    a.exposed,
		Scope:   a.exposed,
		Risk:    permission.Medium,
		Summary: fmt.Sprintf("MCP %s/%s %s", a.srv.cfg.Name, a.remote, capText(compact, maxArgsSummary)),
		Command: fmt.Sprintf("MCP server %q, tool %q, arguments: %s", a.srv.cfg.Name, a.remote, capText(compact, maxArgsCommand)),
		Reasons: []string{"third-party MCP tool"},
	}
	switch {
	case a.destructive:
		act.Risk = permission.High
		act.Reasons = append(act.Reasons, "the server marks it destructive")
	case a.readOnly:
		act.Reasons = append(act.Reasons, "the server says it is read-only (not verified)")
	}
	return act, nil
}

func (a *toolAdapter) Run(ctx context.Context, args json.RawMessage, _ *tools.Env) (tools.Result, error) {
	return a.run(ctx, args)
}

// newToolAdapter wraps one tool of the server.
func newToolAdapter(s *server, exposed string, t *sdk.Tool) *toolAdapter {
	desc := t.Description
	if desc == "" {
		desc = t.Title
	}
	if desc == "" {
		desc = "(no description)"
	}
	a := &toolAdapter{
		srv:         s,
		remote:      t.Name,
		exposed:     exposed,
		description: fmt.Sprintf("[MCP server %s] %s", s.cfg.Name, desc),
		schema:      objectSchema(t.InputSchema),
	}
	if ann := t.Annotations; ann != nil {
		a.destructive = ann.DestructiveHint != nil && *ann.DestructiveHint && !ann.ReadOnlyHint
		a.readOnly = ann.ReadOnlyHint
	}
	a.pinned = s.cfg.Eager || alwaysLoad(t)
	fp, _ := json.Marshal(t)
	a.fingerprint = string(fp)
	a.run = func(ctx context.Context, args json.RawMessage) (tools.Result, error) {
		return s.callTool(ctx, t.Name, args)
	}
	return a
}

// objectSchema passes the tool's input schema through, making sure it is
// a JSON object with "type":"object" (the model APIs reject anything else;
// some servers omit the schema or its type).
func objectSchema(schema any) json.RawMessage {
	var m map[string]any
	if schema != nil {
		if b, err := json.Marshal(schema); err == nil {
			_ = json.Unmarshal(b, &m)
		}
	}
	if m == nil {
		m = map[string]any{}
	}
	if _, ok := m["type"]; !ok {
		m["type"] = "object"
	}
	if m["type"] == "object" {
		if _, ok := m["properties"]; !ok {
			m["properties"] = map[string]any{}
		}
	}
	b, _ := json.Marshal(m)
	return b
}

func compactJSON(raw json.RawMessage) string {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil || b.Len() == 0 {
		return "{}"
	}
	return b.String()
}

// capText cuts s to at most n bytes (on a rune boundary) with an ellipsis.
func capText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n - len("…")
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}

// ServerOf reports which MCP server provides t, for `source: "mcp:<server>"`
// in tool listings; ok is false for a tool that is not from MCP.
func ServerOf(t tools.Tool) (server string, ok bool) {
	if a, isMCP := t.(*toolAdapter); isMCP {
		return a.srv.cfg.Name, true
	}
	return "", false
}

package agent

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/agent-lsp/agent-lsp/permission"
	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/tools"
)

// Mode is how much the agent may do on its own. It is enforced, not only
// hinted: the tools a mode does not offer are left out of the request, and
// a call to one of them (a model ignoring the list) is refused.
type Mode string

const (
	// ModeAsk offers only the read-only tools (not the plan tool).
	ModeAsk Mode = "ask"
	// ModePlan offers the read-only tools and todo_write; the answer is a plan.
	ModePlan Mode = "plan"
	// ModeDefault offers every tool; the permission policy asks as usual.
	ModeDefault Mode = "default"
	// ModeAutoEdit offers every tool, and edits inside the workspace run
	// without a question (they still land through tools.Documents, so they
	// are streamed and undoable); commands still ask, HIGH and CRITICAL
	// keep their rules.
	ModeAutoEdit Mode = "auto-edit"
)

// Modes lists the modes, from the most to the least cautious.
var Modes = []Mode{ModeAsk, ModePlan, ModeDefault, ModeAutoEdit}

// ParseMode reads a mode name ("" is the default mode).
func ParseMode(name string) (Mode, error) {
	m := Mode(strings.ToLower(strings.TrimSpace(name)))
	if m == "" {
		return ModeDefault, nil
	}
	if !slices.Contains(Modes, m) {
		return "", fmt.Errorf("unknown mode %q: want ask, plan, default or auto-edit", name)
	}
	return m, nil
}

// Description says in a few words what the mode allows.
func (m Mode) Description() string {
	switch m {
	case ModeAsk:
		return "read-only tools only"
	case ModePlan:
		return "read-only tools and the plan; the answer is a plan"
	case ModeAutoEdit:
		return "edits inside the workspace without asking; commands still ask"
	}
	return "every tool; changes are asked for"
}

// Offers reports whether the mode offers t to the model.
func (m Mode) Offers(t tools.Tool) bool {
	switch m {
	case ModeAsk:
		return tools.IsReadOnly(t) && t.Name() != tools.TodoWriteName
	case ModePlan:
		return tools.IsReadOnly(t)
	}
	return true
}

// note is what a prompt carries in this mode, so that the model knows why
// its tools are few and what its answer should be. It goes with the user
// message rather than in the system prompt, which never changes (the
// provider caches the request prefix).
func (m Mode) note() string {
	switch m {
	case ModeAsk:
		return "(Mode: ask. Only read-only tools are available: look and answer; do not try to change files or run commands.)"
	case ModePlan:
		return "(Mode: plan. Investigate with the read-only tools, keep the steps with todo_write, and answer with a plan " +
			"the user can approve: what you would change, where, and how you would check it. Do not change files or run commands yet.)"
	}
	return ""
}

// autoEditGate is implemented by a gate that can let workspace edits
// through without asking (*permission.Policy).
type autoEditGate interface {
	SetAutoAllowWorkspaceEdits(on bool)
}

// SetMode changes the session's mode; it takes effect at the next model
// call (a running prompt's next round). The mode is stored with the
// session's next write (a prompt, a turn or a tool result).
func (s *Session) SetMode(m Mode) error {
	if !slices.Contains(Modes, m) {
		return fmt.Errorf("unknown mode %q", m)
	}
	s.mu.Lock()
	changed := s.mode != m
	s.mode = m
	if changed && s.cfg.Store != nil {
		s.pending = append(s.pending, record{Type: recMode, Mode: m})
	}
	s.mu.Unlock()
	if g, ok := s.cfg.Gate.(autoEditGate); ok {
		g.SetAutoAllowWorkspaceEdits(m == ModeAutoEdit)
	}
	return nil
}

// Mode is the session's current mode.
func (s *Session) Mode() Mode {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.mode
}

// offeredTools are the registry's tools the current mode offers, in
// registration order.
func (s *Session) offeredTools() []tools.Tool {
	if s.cfg.Tools == nil {
		return nil
	}
	mode := s.Mode()
	var out []tools.Tool
	for _, t := range s.cfg.Tools.Tools() {
		if mode.Offers(t) {
			out = append(out, t)
		}
	}
	return out
}

// offeredSpecs are the specs of the offered tools, for a request: past the
// tool-search threshold, the deferred ones only once found (tool_search.go).
func (s *Session) offeredSpecs() []provider.ToolSpec {
	ts := s.offeredTools()
	if ts == nil {
		return nil
	}
	ts = s.cfg.Tools.OfferIn(&s.deferral, ts, s.foundTools())
	specs := make([]provider.ToolSpec, len(ts))
	for i, t := range ts {
		specs[i] = provider.ToolSpec{Name: t.Name(), Description: t.Description(), Schema: t.Schema()}
	}
	return specs
}

// modeGate refuses calls to tools the session's mode does not offer, then
// asks the session's own gate.
type modeGate struct {
	s     *Session
	inner tools.Gate
}

// Check implements tools.Gate.
func (g modeGate) Check(ctx context.Context, a permission.Action) (permission.Verdict, error) {
	mode := g.s.Mode()
	if t, ok := g.s.cfg.Tools.Lookup(a.Tool); ok && !mode.Offers(t) {
		return permission.Verdict{Reason: fmt.Sprintf(
			"refused: %s is not available in %s mode (%s); the user can change the mode", a.Tool, mode, mode.Description())}, nil
	}
	if g.inner == nil {
		return permission.Verdict{Allowed: true}, nil
	}
	return g.inner.Check(ctx, a)
}

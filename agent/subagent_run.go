package agent

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"go.uber.org/zap"

	"github.com/agent-lsp/agent-lsp/permission"
	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/tools"
)

// subagentNote ends a child's system prompt: who reads its answer.
const subagentNote = "You are a subagent: another agent gave you the task in the user message, and it reads only " +
	"your final answer. Work on the task with your tools, then answer with a concise summary of what you found " +
	"or did: the facts, file paths and line numbers the caller needs, nothing it did not ask for."

type subagentTurnKey struct{}

// subagentTurn is what the task calls of one prompt share: the session
// that runs them, the prompt's listener their progress goes to, and the
// limits of MaxConcurrentSubagents and MaxSubagentsPerPrompt.
type subagentTurn struct {
	parent *Session
	out    *serialListener
	slots  chan struct{} // one per running child

	mu      sync.Mutex
	started int
	used    provider.Usage // by the children's model calls
}

// withSubagentTurn is ctx carrying a prompt's new subagentTurn, for the
// task calls its rounds make.
func (s *Session) withSubagentTurn(ctx context.Context, out *serialListener) (context.Context, *subagentTurn) {
	t := &subagentTurn{parent: s, out: out, slots: make(chan struct{}, MaxConcurrentSubagents)}
	return context.WithValue(ctx, subagentTurnKey{}, t), t
}

// usage is what the turn's children's model calls used.
func (t *subagentTurn) usage() provider.Usage {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.used
}

// runChild runs one child to its end: its own session (own history, the
// parent's model, the tools asked for, the parent's permission gate and
// documents), its progress sent as the parent's events marked with callID,
// its usage counted in the parent's totals, its transcript kept with the
// parent. Cancelling ctx (the parent's cancel) cancels it.
func (t *subagentTurn) runChild(ctx context.Context, callID string, a taskArgs, def *SubagentDef) (tools.Result, error) {
	p := t.parent
	reg, err := p.childTools(a.Tools, def) // a call refused here starts nothing and counts for nothing
	if err != nil {
		return tools.Result{}, err
	}
	t.mu.Lock()
	if t.started >= MaxSubagentsPerPrompt {
		t.mu.Unlock()
		return tools.Result{}, fmt.Errorf("task: this prompt already started %d subagents, the most one prompt may; "+
			"do the rest yourself", MaxSubagentsPerPrompt)
	}
	t.started++
	t.mu.Unlock()
	select {
	case t.slots <- struct{}{}:
	case <-ctx.Done():
		return tools.Result{}, context.Cause(ctx)
	}
	defer func() { <-t.slots }()

	hooks := childHooks(p.cfg.Hooks, p.id, def)
	settings, pricing, budget := p.childModel()
	if def != nil && def.Model != "" && p.cfg.SubagentModel != nil {
		m, err := p.cfg.SubagentModel(ctx, def.Model)
		if err != nil {
			return tools.Result{}, fmt.Errorf("task: subagent %q: model %q: %w", def.Name, def.Model, err)
		}
		settings, pricing, budget = m, m.Pricing, 0
	}
	touched := &touchedDocs{inner: p.env.Docs, ws: p.env.Workspace}
	env := *p.env // the child gets its own plan sink and read log (newSession)
	if env.Docs != nil {
		env.Docs = touched
	}
	child := NewSession(Config{
		Provider: settings.Provider, Model: settings.Model, MaxTokens: settings.MaxTokens, Thinking: settings.Thinking,
		Tools: reg, Env: &env, Gate: childGate{inner: p.gate, parent: callID}, // the parent's mode and policy decide, its approver asks
		MaxRounds: SubagentMaxRounds, MaxParallel: p.cfg.MaxParallel, MaxOutput: p.cfg.MaxOutput,
		MaxAnswerBytes: p.cfg.MaxAnswerBytes, MaxToolCalls: p.cfg.MaxToolCalls,
		Budget: budget, Keep: p.cfg.Keep, Pricing: pricing, Now: p.cfg.Now,
		Logger: p.cfg.Logger.With(zap.String("subagent", callID)),
		// Its model calls count against the parent's spend caps, and its
		// tool calls pass the user's tool hooks, its end SubagentStop's.
		Spend: p.cfg.Spend, Hooks: hooks.hooks(),
	}, p.childSystemPrompt(def))
	hooks.bind(child)
	p.children.start(callID, child)
	o := child.Prompt(ctx, a.Prompt, &childListener{turn: t, callID: callID})
	p.keepChild(callID, child)

	switch o.StopReason {
	case StopCancelled:
		return tools.Result{}, fmt.Errorf("subagent cancelled: %w", o.Err)
	case StopError:
		return tools.Result{}, fmt.Errorf("subagent failed: %w", o.Err)
	}
	return tools.Result{Output: childSummary(o, touched.paths())}, nil
}

// childModel is the model a built-in child talks to: the parent's now.
func (s *Session) childModel() (ModelSettings, *Pricing, int) {
	m := s.current()
	budget := 0
	if s.budgetFixed {
		budget = m.budget
	}
	return m.ModelSettings, m.pricing, budget
}

// childSystemPrompt is the parent's system prompt (the workspace, the
// OS), then the subagent's own instructions.
func (s *Session) childSystemPrompt(def *SubagentDef) string {
	var b strings.Builder
	s.mu.Lock()
	if len(s.history) > 0 && s.history[0].Role == provider.RoleSystem {
		b.WriteString(s.history[0].Text)
		b.WriteString("\n\n")
	}
	s.mu.Unlock()
	b.WriteString(subagentNote)
	if def != nil && strings.TrimSpace(def.Prompt) != "" {
		b.WriteString("\n\n")
		b.WriteString(strings.TrimSpace(def.Prompt))
	}
	return b.String()
}

// childSummary is the task call's result: the child's last answer, and
// the files it changed.
func childSummary(o Outcome, touched []string) string {
	text := strings.TrimSpace(o.Text)
	if text == "" {
		text = "(the subagent gave no answer)"
	}
	if o.Notice != "" {
		text += "\n\n" + o.Notice
	}
	if len(touched) > 0 {
		text += "\n\nFiles touched: " + strings.Join(touched, ", ")
	}
	return text
}

// childListener sends a child's events as the parent's, marked with the
// task call's id. The child's round_end counts its usage in the parent's
// totals and carries those; its prompt_end (the task call's result says
// how it ended) and its plan (the parent's plan is the session's) stay
// with the child.
type childListener struct {
	turn   *subagentTurn
	callID string
}

// OnEvent implements Listener.
func (l *childListener) OnEvent(e Event) {
	switch e.Kind {
	case EventPromptEnd, EventPlan:
		return
	case EventRoundEnd, EventCompacted:
		e.Totals = l.turn.parent.addChildUsage(e.Usage, e.Cost, !e.CostUnknown)
		l.turn.mu.Lock()
		l.turn.used = l.turn.used.Add(e.Usage)
		l.turn.mu.Unlock()
	}
	e.ParentToolCallID = l.callID
	l.turn.out.emit(e)
}

// addChildUsage counts a child's model call in the session's totals (and
// stores it, so a resumed session's totals have it) and returns them.
func (s *Session) addChildUsage(u provider.Usage, cost float64, priced bool) Totals {
	if u == (provider.Usage{}) {
		return s.Totals()
	}
	now := s.cfg.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.totals = s.totals.add(u, cost, priced)
	if s.cfg.Store != nil {
		s.pending = append(s.pending, record{Type: recUsage, Usage: &u, Cost: cost, Unpriced: !priced, Time: &now})
	}
	return s.totals
}

// touchedDocs is a child's documents: the parent's (so its edits land,
// and are checkpointed, as the parent's would), with the files it
// changed noted for its result.
type touchedDocs struct {
	inner tools.Documents
	ws    *tools.Workspace

	mu      sync.Mutex
	changed []string // workspace-relative, in the order first changed
}

func (d *touchedDocs) Read(ctx context.Context, path string) (tools.Doc, error) {
	return d.inner.Read(ctx, path)
}

func (d *touchedDocs) Apply(ctx context.Context, edit tools.FileEdit) error {
	if err := d.inner.Apply(ctx, edit); err != nil {
		return err
	}
	rel := edit.Before.Path
	if d.ws != nil {
		rel = d.ws.Rel(rel)
	}
	d.mu.Lock()
	if !slices.Contains(d.changed, rel) {
		d.changed = append(d.changed, rel)
	}
	d.mu.Unlock()
	return nil
}

// ReadLines keeps read_file's window reads windowed (see checkpointDocs).
func (d *touchedDocs) ReadLines(ctx context.Context, path string, req tools.LineRequest) (tools.LineWindow, error) {
	return tools.ReadWindow(ctx, d.inner, path, req)
}

func (d *touchedDocs) paths() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return slices.Clone(d.changed)
}

// childGate is a child's gate: the parent's (its mode, its policy, its
// approver), asked with the task call's id on the action, so a front end
// can say which subagent asks.
type childGate struct {
	inner  tools.Gate
	parent string
}

// Check implements tools.Gate.
func (g childGate) Check(ctx context.Context, a permission.Action) (permission.Verdict, error) {
	a.ParentCallID = g.parent
	return g.inner.Check(ctx, a)
}

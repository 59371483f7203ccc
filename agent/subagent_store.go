package agent

import (
	"context"
	"slices"
	"sync"

	"github.com/agent-lsp/agent-lsp/provider"
)

// SubagentDef is a custom subagent: a name the task tool's `agent`
// argument picks, what it is for, the tools it gets when the call names
// none (nil: the defaults), a model preset ("" : the parent's) and its
// instructions, added to a child's system prompt.
type SubagentDef struct {
	Name        string
	Description string
	Tools       []string
	Model       string
	Prompt      string
}

// SubagentModelFunc connects the model a custom subagent names (a preset
// of the front end's); its ModelSettings.Pricing prices its calls.
type SubagentModelFunc func(ctx context.Context, name string) (ModelSettings, error)

// subagentLog is a session's children by task call id: those running
// (their live history) and those that ended (their history, stored with
// the session). Its own lock: a child's history is read while the parent
// session's lock may be wanted by the child's events.
type subagentLog struct {
	mu      sync.Mutex
	running map[string]*Session
	ended   map[string]endedChild
}

// endedChild is what stays of a child: its conversation and its totals.
type endedChild struct {
	history []provider.Message
	totals  Totals
}

func (l *subagentLog) start(callID string, child *Session) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.running == nil {
		l.running = map[string]*Session{}
	}
	l.running[callID] = child
}

func (l *subagentLog) end(callID string, c endedChild) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.running, callID)
	if l.ended == nil {
		l.ended = map[string]endedChild{}
	}
	l.ended[callID] = c
}

// keepChild moves an ended child's history into the log and queues its
// record, written with the task call's result.
func (s *Session) keepChild(callID string, child *Session) {
	c := endedChild{history: child.History(), totals: child.Totals()}
	s.children.end(callID, c)
	if s.cfg.Store == nil {
		return
	}
	u := c.totals.Usage
	s.mu.Lock()
	s.pending = append(s.pending, record{Type: recSubagent, ToolCallID: callID, History: c.history,
		Usage: &u, Cost: c.totals.Cost, Unpriced: !c.totals.CostKnown()})
	s.mu.Unlock()
}

// SubagentHistory is the conversation of the child the task call callID
// started, and its usage totals: as they are now while it runs, as it
// ended afterwards (also after a resume). The child's system prompt is
// its first message.
func (s *Session) SubagentHistory(callID string) ([]provider.Message, Totals, bool) {
	s.children.mu.Lock()
	child, running := s.children.running[callID]
	c, ended := s.children.ended[callID]
	s.children.mu.Unlock()
	switch {
	case running:
		return child.History(), child.Totals(), true
	case ended:
		return slices.Clone(c.history), c.totals, true
	}
	return nil, Totals{}, false
}

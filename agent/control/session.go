package control

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/tools"
)

// maxTitleRunes bounds a session title taken from its first prompt.
const maxTitleRunes = 60

// UpdateKind names what a control update is about.
type UpdateKind string

// The kinds of Update.
const (
	UpdateMode     UpdateKind = "mode"
	UpdateModel    UpdateKind = "model"
	UpdatePlan     UpdateKind = "plan"
	UpdateTitle    UpdateKind = "title"    // an untitled session was named by its first prompt
	UpdateMention  UpdateKind = "mention"  // what became of one mention, before the prompt runs
	UpdateCommands UpdateKind = "commands" // NotifyCommands: the command list changed
)

// Update is a change of a session a front end shows outside a prompt's
// events, sent through Binding.Notify. Only the fields of its Kind are set.
type Update struct {
	SessionID string
	Kind      UpdateKind
	Mode      agent.Mode
	Model     ModelInfo
	Message   string           // why the model changed when the user did not ask
	Plan      []tools.TodoItem // never nil for UpdatePlan
	Title     string
	Mention   agent.MentionReport
	Commands  []Command
	Queue     []QueueItem // never nil for UpdateQueue (queue.go)
}

// Session is one conversation with its own binding, permission grants
// ("allow for this session" means this one) and model.
type Session struct {
	c     *Controller
	id    string
	agent *agent.Session
	b     Binding

	mu       sync.Mutex // guards the fields below
	title    string
	created  time.Time
	updated  time.Time
	running  map[int]context.CancelCauseFunc // prompts and operations running or queued
	nextRun  int
	model    provider.Config // what the session talks to
	switched bool            // model was switched (or restored): the configured model's error does not apply

	window windowState // the context window the budget follows (window.go)

	hooksStarted   bool                           // the SessionStart hooks ran (hooks.go)
	hooksNext      string                         // the source of the next SessionStart ("": startup or resume)
	idle           idleNotice                     // the Notification hooks' idle_prompt (hooks_idle.go)
	queue          promptQueue                    // the prompts waiting for their turn and the steer messages (queue.go)
	subagentModels map[string]agent.ModelSettings // custom subagents' presets, connected (subagent_model.go)
}

func newSession(c *Controller, a *agent.Session, b Binding, title string, created, updated time.Time) *Session {
	s := &Session{c: c, id: a.ID(), agent: a, b: b, title: title, created: created, updated: updated,
		running: map[int]context.CancelCauseFunc{}, model: c.o.Model}
	s.queue.notify = s.notify
	a.SetSteerSource(&s.queue)
	return s
}

// ID is the session's id, the one its file in the store is named after.
func (s *Session) ID() string { return s.id }

// Title is the session's title: given, or its first prompt shortened.
func (s *Session) Title() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.title
}

// Agent is the conversation itself: history for replay, totals, plan,
// checkpoints.
func (s *Session) Agent() *agent.Session { return s.agent }

// Workspace is the session's workspace.
func (s *Session) Workspace() *tools.Workspace { return s.b.Workspace }

func (s *Session) info() SessionInfo {
	s.mu.Lock()
	defer s.mu.Unlock()
	root := ""
	if s.b.Workspace != nil {
		if roots := s.b.Workspace.Roots(); len(roots) > 0 {
			root = roots[0]
		}
	}
	return SessionInfo{ID: s.id, Title: s.title, Created: s.created, Updated: s.updated, Root: root, Worktree: s.Worktree()}
}

func (s *Session) notify(u Update) {
	if s.b.Notify == nil {
		return
	}
	u.SessionID = s.id
	s.b.Notify(u)
}

// track registers an operation's cancel function until untrack is called.
func (s *Session) track(cancel context.CancelCauseFunc) (untrack func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	id := s.nextRun
	s.nextRun++
	s.running[id] = cancel
	return func() {
		s.mu.Lock()
		delete(s.running, id)
		s.mu.Unlock()
	}
}

// tracked is ctx made cancellable by Cancel until done is called.
func (s *Session) tracked(ctx context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(ctx)
	untrack := s.track(cancel)
	return ctx, func() { untrack(); cancel(nil) }
}

// Cancel cancels every running or waiting prompt and operation of the
// session and returns how many there were. The steer messages for the
// running prompt are removed with it; the prompts queued with DeliverQueue
// stay and run next (DropQueue removes them).
func (s *Session) Cancel(cause error) int {
	s.queue.drop(DeliverSteer)
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.running {
		c(cause)
	}
	return len(s.running)
}

// touch records a prompt: the first one names an untitled session.
func (s *Session) touch(prompt string) {
	s.mu.Lock()
	named := false
	if s.title == "" {
		s.title = shortTitle(prompt)
		named = s.title != ""
	}
	s.updated = time.Now()
	title := s.title
	s.mu.Unlock()
	if named {
		s.notify(Update{Kind: UpdateTitle, Title: title})
	}
}

// touchUpdated marks the session as changed without naming it.
func (s *Session) touchUpdated() {
	s.mu.Lock()
	s.updated = time.Now()
	s.mu.Unlock()
}

func shortTitle(prompt string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(prompt), "\n")
	line = strings.TrimSpace(line)
	if r := []rune(line); len(r) > maxTitleRunes {
		return string(r[:maxTitleRunes-1]) + "…"
	}
	return line
}

// Mode is the session's mode.
func (s *Session) Mode() agent.Mode { return s.agent.Mode() }

// SetMode switches the mode from the next model call on and sends a mode
// update.
func (s *Session) SetMode(name string) (agent.Mode, error) {
	m, err := agent.ParseMode(name)
	if err != nil {
		return "", invalidf("%v", err)
	}
	if err := s.agent.SetMode(m); err != nil {
		return "", invalidf("%v", err)
	}
	s.notify(Update{Kind: UpdateMode, Mode: m})
	return m, nil
}

// describeModes is the text of a bare /mode.
func describeModes(current agent.Mode) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Mode: %s. Modes (/mode <name>):", current)
	for _, m := range agent.Modes {
		fmt.Fprintf(&b, "\n  %s: %s", m, m.Description())
	}
	return b.String()
}

// NotifyCommands sends the session's command list (a front end calls it
// when its PromptSource changed).
func (s *Session) NotifyCommands() {
	s.notify(Update{Kind: UpdateCommands, Commands: s.Commands()})
}

package control

import (
	"context"
	"sync"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/permission"
)

// Claude Code's SessionStart sources and SessionEnd reasons (package
// hooks names them too; this package cannot import it).
const (
	sourceStartup = "startup"
	sourceResume  = "resume"
	sourceClear   = "clear"
	sourceCompact = "compact"

	// EndClear: /clear ended the conversation.
	EndClear = "clear"
	// EndPromptExit: the user left the chat.
	EndPromptExit = "prompt_input_exit"
	// EndOther: the session was closed or deleted, or the front end shut
	// down.
	EndOther = "other"
)

// notifyPermission is the notification_type of a permission question.
const notifyPermission = "permission_prompt"

// LifecycleHooks are the hooks of a session's life outside its prompts
// (package hooks): its end, and the notifications that the agent waits on
// the user.
type LifecycleHooks interface {
	// SessionEnd runs when a session whose SessionStart hooks ran ends
	// (reason: EndClear, EndPromptExit, EndOther); it cannot block and is
	// bounded in time.
	SessionEnd(ctx context.Context, sessionID, reason string)
	// Notify runs the Notification hooks (kind: their notification_type).
	Notify(ctx context.Context, sessionID, kind, message string)
}

// startSource is the source of the next SessionStart hooks, and marks
// them run ("": they ran already).
func (s *Session) startSource() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.hooksStarted {
		return ""
	}
	s.hooksStarted = true
	source := s.hooksNext
	s.hooksNext = ""
	if source == "" {
		source = sourceStartup
		if len(s.agent.History()) > 1 {
			source = sourceResume
		}
	}
	return source
}

// restartHooks makes the next prompt run the SessionStart hooks again,
// with source (after /clear or a compaction, as Claude Code does). It
// reports whether they had run.
func (s *Session) restartHooks(source string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	started := s.hooksStarted
	s.hooksStarted, s.hooksNext = false, source
	return started
}

// endHooks runs the SessionEnd hooks once for a session whose SessionStart
// hooks ran: a session that never had a prompt never started.
func (s *Session) endHooks(ctx context.Context, reason string) {
	h := s.b.Hooks
	if h == nil || !s.restartHooks("") {
		return
	}
	h.SessionEnd(ctx, s.id, reason)
}

// EndSessions runs the SessionEnd hooks of every loaded session with
// reason, at once (each hook is bounded), and returns when all ended: a
// front end calls it when it shuts down, before its sandbox goes.
func (c *Controller) EndSessions(ctx context.Context, reason string) {
	var wg sync.WaitGroup
	for _, s := range c.Loaded() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.stopIdle(true)
			s.endHooks(ctx, reason)
		}()
	}
	wg.Wait()
}

// afterClear ends the conversation for the hooks (SessionEnd "clear"); the
// next prompt starts it again (SessionStart "clear").
func (s *Session) afterClear(ctx context.Context) {
	s.endHooks(ctx, EndClear)
	s.restartHooks(sourceClear)
}

// afterCompaction makes the next prompt run SessionStart "compact", whose
// context joins the compacted conversation.
func (s *Session) afterCompaction(c agent.Compaction) {
	if c.Elided > 0 || c.Summarised > 0 {
		s.restartHooks(sourceCompact)
	}
}

// askNotice is the session's approver that runs the Notification hooks
// while a permission question is open (Claude Code's "permission_prompt"),
// so a hook can tell the user, away from the editor, that the agent waits
// on them. The hook is stopped (its process group killed) once the
// question is answered: it cannot delay or answer it.
type askNotice struct {
	permission.Approver
	hooks Hooks
	id    *string // the session's, set once it exists
}

func (a askNotice) Approve(ctx context.Context, act permission.Action, offerSession bool) (permission.Decision, error) {
	hctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	done := make(chan struct{})
	go func() {
		defer close(done)
		a.hooks.Notify(hctx, *a.id, notifyPermission, "agent-lsp needs your permission to use "+act.Tool+": "+act.Summary)
	}()
	defer func() {
		cancel()
		<-done
	}()
	return a.Approver.Approve(ctx, act, offerSession)
}

// approverFor is b's approver, with the Notification hooks when b has
// hooks and someone is asked (not --yes). id is the session's id, set
// once the session exists.
func approverFor(b Binding, id *string) permission.Approver {
	if _, auto := b.Approver.(permission.AutoApprover); auto || b.Hooks == nil {
		return b.Approver
	}
	return askNotice{Approver: b.Approver, hooks: b.Hooks, id: id}
}

package hooks

import (
	"context"
	"strings"
	"time"
)

// SessionEndTimeout bounds a session's SessionEnd hooks, all of them
// together, whatever their timeouts: a session ends when the user leaves,
// closes or deletes it, or the daemon shuts down, and a hung hook must not
// hold that up (it is killed with its process group; the hooks after it
// do not run).
const SessionEndTimeout = 1500 * time.Millisecond

// SessionStart sources and SessionEnd reasons, by Claude Code's names.
const (
	SourceStartup = "startup" // a new session's first prompt
	SourceResume  = "resume"  // a stored session's first prompt in this run
	SourceClear   = "clear"   // the first prompt after /clear
	SourceCompact = "compact" // the first prompt after a compaction

	EndClear      = "clear"             // /clear ended the conversation
	EndPromptExit = "prompt_input_exit" // the user left the chat
	EndOther      = "other"             // the session was closed or deleted, or the daemon shut down
)

// SessionStart runs the SessionStart hooks whose matcher matches source
// and returns the context they add for the model (additionalContext, or
// plain stdout).
func (r *Runner) SessionStart(ctx context.Context, sessionID, source string) string {
	in := base(sessionID)
	in["source"] = source
	var extra []string
	for _, res := range r.runEvent(ctx, SessionStart, source, in) {
		if res.err != nil || res.exit != 0 {
			continue
		}
		if a, ok := res.parse(); ok {
			r.system(a)
			extra = append(extra, a.Specific.AdditionalContext)
		} else {
			extra = append(extra, strings.TrimSpace(res.stdout))
		}
	}
	return join(extra)
}

// endByKey marks a context whose hooks must end by a time (SessionEnd's):
// each runs at most until then, and none starts after it.
type endByKey struct{}

// endBy is ctx's time its hooks must end by, if it has one.
func endBy(ctx context.Context) (time.Time, bool) {
	t, ok := ctx.Value(endByKey{}).(time.Time)
	return t, ok
}

// SessionEnd runs the SessionEnd hooks whose matcher matches reason. They
// cannot block the end; together they run at most SessionEndTimeout.
func (r *Runner) SessionEnd(ctx context.Context, sessionID, reason string) {
	ctx = context.WithValue(ctx, endByKey{}, time.Now().Add(SessionEndTimeout))
	in := base(sessionID)
	in["reason"] = reason
	for _, res := range r.runEvent(ctx, SessionEnd, reason, in) {
		r.systemOf(res)
	}
}

// PreCompact runs the PreCompact hooks whose matcher matches trigger
// ("manual": /compact, with its argument as instructions; "auto"); they
// cannot stop the compaction.
func (r *Runner) PreCompact(ctx context.Context, sessionID, trigger, instructions string) {
	in := base(sessionID)
	in["trigger"], in["custom_instructions"] = trigger, instructions
	for _, res := range r.runEvent(ctx, PreCompact, trigger, in) {
		r.systemOf(res)
	}
}

// Notification kinds (notification_type, what a Notification matcher
// matches), by Claude Code's names.
const (
	NotifyPermission = "permission_prompt" // a permission question waits for the user
	NotifyIdle       = "idle_prompt"       // a prompt ended a while ago and the agent waits for the next
)

// Notify runs the Notification hooks whose matcher matches kind, with
// message. They cannot block or answer anything.
func (r *Runner) Notify(ctx context.Context, sessionID, kind, message string) {
	in := base(sessionID)
	in["message"], in["notification_type"] = message, kind
	for _, res := range r.runEvent(ctx, Notification, kind, in) {
		r.systemOf(res)
	}
}

// systemOf shows the systemMessage of a hook that succeeded with a JSON
// answer (the events whose answers decide nothing).
func (r *Runner) systemOf(res result) {
	if res.err == nil && res.exit == 0 {
		if a, ok := res.parse(); ok {
			r.system(a)
		}
	}
}

// Package control owns what a user can ask of conversations, whatever the
// front end: sessions (new, list, load/resume, close), prompts with context
// and mentions, the queue of prompts and steer messages, modes, models
// (presets, switching, restore after a restart), slash commands (built-in
// and MCP prompts), checkpoints and rewind, compaction, usage totals. The LSP daemon, the terminal chat and
// ACP are adapters over it: they keep their wire formats and presentation
// (popups, progress, streaming), and this package knows none of them.
//
// It sits under agent in the import flow (it imports agent, provider,
// tools and permission, as agent does) so that every front end reaches it
// the way it reaches the agent, and it cannot learn about a front end, a
// wire dialect or MCP: MCP prompts arrive through PromptSource in tools'
// PromptInfo shape, which an *mcp.Manager already is.
package control

import (
	"errors"
	"fmt"
)

// Error kinds a front end maps to its own answers. They are matched with
// errors.Is; the error's text is the message meant for the user.
var (
	// ErrInvalid marks a user-input error: an unknown mode, preset or
	// command, bad command arguments (LSP: InvalidParams).
	ErrInvalid = errors.New("invalid")
	// ErrUnknownSession: the id is neither loaded nor stored.
	ErrUnknownSession = errors.New("unknown session")
	// ErrCancelled: the operation was cancelled (Cancel, or its ctx).
	ErrCancelled = errors.New("cancelled")
	// ErrNotInitialized: the controller has no workspace for a new session.
	ErrNotInitialized = errors.New("no workspace")
)

// kindError is an error of one of the kinds above whose text is its own
// message (no "invalid: " prefix): front ends show it as it is.
type kindError struct {
	kind error
	msg  string
	err  error // the cause, if any
}

func (e *kindError) Error() string        { return e.msg }
func (e *kindError) Is(target error) bool { return target == e.kind }
func (e *kindError) Unwrap() error        { return e.err }

func invalidf(format string, args ...any) error {
	return &kindError{kind: ErrInvalid, msg: fmt.Sprintf(format, args...)}
}

func unknownSession(id string) error {
	return &kindError{kind: ErrUnknownSession, msg: fmt.Sprintf("unknown session %q", id)}
}

func cancelled(cause error) error {
	msg := "cancelled"
	if cause != nil {
		msg += ": " + cause.Error()
	}
	return &kindError{kind: ErrCancelled, msg: msg, err: cause}
}

//go:build !linux

package sandbox

import (
	"context"
	"errors"
	"fmt"
	"io"
)

// errNoHandoff: only Linux hands commands to a stub; elsewhere a client's
// terminal runs them as it always did.
var errNoHandoff = errors.New("handing a command to a client's terminal needs Linux")

// Handoff is a command prepared for a stub (Linux only).
type Handoff struct{}

// Handoff is not available on this platform.
func (s *Sandbox) Handoff(command, dir string, env []string) (*Handoff, error) {
	return nil, errNoHandoff
}

// PlainHandoff is not available on this platform.
func PlainHandoff(command, dir string, env []string) (*Handoff, error) { return nil, errNoHandoff }

// Sandboxed reports false.
func (h *Handoff) Sandboxed() bool { return false }

// Close does nothing.
func (h *Handoff) Close() error { return nil }

// Attachment is the daemon's side of a handoff (Linux only).
type Attachment struct{}

// Attach is not available on this platform.
func Attach(h *Handoff) (*Attachment, error) { return nil, errNoHandoff }

// Program is empty: there is no stub.
func (a *Attachment) Program() string { return "" }

// Args are empty: there is no stub.
func (a *Attachment) Args() []string { return nil }

// Env is empty: there is no stub.
func (a *Attachment) Env() (name, value string) { return "", "" }

// Sandboxed reports false.
func (a *Attachment) Sandboxed() bool { return false }

// Started never closes.
func (a *Attachment) Started() <-chan struct{} { return nil }

// Done never closes.
func (a *Attachment) Done() <-chan struct{} { return nil }

// Exit is never reported.
func (a *Attachment) Exit() Exit { return Exit{} }

// Close does nothing.
func (a *Attachment) Close() error { return nil }

// RunAttached fails: there is no stub on this platform.
func RunAttached(_ context.Context, _ []string, _ string, _, stderr io.Writer) int {
	fmt.Fprintf(stderr, "agent-lsp sandbox stub: %v\n", errNoHandoff)
	return 125
}

// Abandon reports true: no stub ever has the command.
func (a *Attachment) Abandon() bool { return true }

// Settle returns at once.
func (a *Attachment) Settle() {}

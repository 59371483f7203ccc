package tools

import (
	"fmt"

	"github.com/agent-lsp/agent-lsp/tools/sandbox"
)

// Attachment is a command handed to a process someone else starts (the
// ACP client's terminal runs this binary as a stub): the stub gets the
// command as RunCommand would start it, inside the sandbox when the runner
// has an active one, with the same scrubbed environment either way.
type Attachment struct {
	*sandbox.Attachment
	runner *ProcessRunner
}

// Attach prepares req for a stub; the caller has the returned Program and
// Args run, waits for Started, and calls Close in the end. The error is
// for a command that cannot be prepared (or a platform without stubs):
// RunCommand can still run it.
func (r *ProcessRunner) Attach(req CommandRequest) (*Attachment, error) {
	var h *sandbox.Handoff
	var err error
	if r.active() && !req.Unsandboxed {
		h, err = r.Sandbox.Handoff(req.Command, req.Dir, ChildEnviron())
	} else {
		h, err = sandbox.PlainHandoff(req.Command, req.Dir, ChildEnviron())
	}
	if err != nil {
		return nil, fmt.Errorf("run_bash: %w", err)
	}
	a, err := sandbox.Attach(h)
	if err != nil {
		return nil, fmt.Errorf("run_bash: %w", err)
	}
	return &Attachment{Attachment: a, runner: r}, nil
}

// Finish completes the outcome of the command the stub ran: whether it
// was sandboxed, what the sandbox refused, and the exit the stub reported
// (more exact than what a client relays: the signal's name).
func (a *Attachment) Finish(out *CommandOutcome) {
	out.Sandboxed = a.Sandboxed()
	if ex := a.Exit(); ex.Reported && ex.Err == "" {
		out.ExitCode = ex.Code
		out.State = fmt.Sprintf("exit status %d", ex.Code)
		if ex.Signal != "" {
			out.State = "signal: " + ex.Signal
		}
	}
	if out.Sandboxed && (out.ExitCode != 0 || out.TimedOut) {
		out.Blocked = a.runner.Sandbox.Explain(out.Output)
	}
}

package acp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	sdk "github.com/coder/acp-go-sdk"
	"go.uber.org/zap"

	"github.com/agent-lsp/agent-lsp/tools"
)

// terminalOutputLimit bounds what the client keeps of a command's output;
// the tool registry truncates what the model reads further.
const terminalOutputLimit = 256 << 10

// releaseWait bounds the clean-up calls (kill, output, release) made after
// the prompt's context has ended.
const releaseWait = 2 * time.Second

// terminalRunner is tools.CommandRunner over the client's terminals
// (terminal/create, wait_for_exit, output, kill, release), so the user
// watches the command live. The risk rules and the approval ran before it.
//
// With our own runner behind it (local, a tools.ProcessRunner), the client
// runs this binary as a stub that takes the command from us over a unix
// socket and starts it exactly as our runner would: in the OS sandbox when
// it is active, with our scrubbed environment, never the client's
// (terminal_attach.go). The command is then rated as our runner's would
// be. When the client's terminal cannot run the stub, our runner runs the
// command and the tool result says so. Without local (tests of the bare
// protocol) the client runs `bash -c` itself, judged unsandboxed.
type terminalRunner struct {
	s     *session
	local tools.CommandRunner
	// attachWait bounds how long the stub may take to connect.
	attachWait time.Duration
}

var _ tools.CommandRunner = (*terminalRunner)(nil)

// attacher is a runner that can hand a command to a stub
// (tools.ProcessRunner).
type attacher interface {
	tools.CommandRunner
	Attach(req tools.CommandRequest) (*tools.Attachment, error)
	Summary() string
}

// handsOff returns the runner commands are handed from, if there is one.
func (r *terminalRunner) handsOff() (attacher, bool) {
	a, ok := r.local.(attacher)
	return a, ok
}

// Containment implements tools.CommandRunner: our runner's, whose sandbox
// the stub starts the command in.
func (r *terminalRunner) Containment() tools.Containment {
	if a, ok := r.handsOff(); ok {
		return a.Containment()
	}
	return tools.Containment{}
}

// where says how and where a command runs, for the permission request
// and the tool call's title.
func (r *terminalRunner) where(sandboxed bool) string {
	a, ok := r.handsOff()
	switch {
	case !ok:
		return "in your terminal, not sandboxed"
	case sandboxed:
		return "sandboxed, in your terminal"
	case a.Containment().FS:
		return "outside the sandbox, in your terminal, without your credentials"
	}
	return "in your terminal, NOT sandboxed (" + a.Summary() + "), without your credentials"
}

// asksUnsandboxed reports whether run_bash's arguments ask to leave the
// sandbox ("sandbox": false).
func asksUnsandboxed(raw json.RawMessage) bool {
	var a struct {
		Sandbox *bool `json:"sandbox"`
	}
	return json.Unmarshal(raw, &a) == nil && a.Sandbox != nil && !*a.Sandbox
}

// RunCommand implements tools.CommandRunner.
func (r *terminalRunner) RunCommand(ctx context.Context, req tools.CommandRequest) (tools.CommandOutcome, error) {
	a, ok := r.handsOff()
	if !ok {
		return r.runDirect(ctx, req)
	}
	att, err := a.Attach(req)
	if err != nil {
		return r.fallback(ctx, req, err.Error())
	}
	defer func() {
		if err := att.Close(); err != nil {
			r.s.log.Debug("closing a command's handoff", zap.Error(err))
		}
	}()
	return r.runAttached(ctx, req, att)
}

// cwd is the command's working directory.
func (r *terminalRunner) cwd(req tools.CommandRequest) *string {
	if req.Dir != "" {
		return sdk.Ptr(req.Dir)
	}
	if roots := r.s.ws.Roots(); len(roots) > 0 {
		return sdk.Ptr(roots[0])
	}
	return nil
}

// runDirect has the client run `bash -c command` itself: its environment,
// no sandbox.
func (r *terminalRunner) runDirect(ctx context.Context, req tools.CommandRequest) (tools.CommandOutcome, error) {
	p, sid := r.s.peer, r.s.id
	create := sdk.CreateTerminalRequest{SessionId: sid, Command: "bash", Args: []string{"-c", req.Command},
		OutputByteLimit: sdk.Ptr(terminalOutputLimit), Cwd: r.cwd(req)}
	created, err := p.CreateTerminal(ctx, create)
	if err != nil {
		return tools.CommandOutcome{}, fmt.Errorf("terminal/create: %w", err)
	}
	id := created.TerminalId
	if ap, ok := tools.ApprovalFrom(ctx); ok && ap.Action.CallID != "" {
		r.s.showTerminal(ctx, ap.Action.CallID, id)
	}
	cleanup, cancelCleanup := context.WithTimeout(context.WithoutCancel(ctx), releaseWait)
	defer cancelCleanup()
	defer func() { _, _ = p.ReleaseTerminal(cleanup, sdk.ReleaseTerminalRequest{SessionId: sid, TerminalId: id}) }()

	waitCtx := ctx
	if req.Timeout > 0 {
		var cancel context.CancelFunc
		waitCtx, cancel = context.WithTimeout(ctx, req.Timeout)
		defer cancel()
	}
	var out tools.CommandOutcome
	exit, werr := p.WaitForTerminalExit(waitCtx, sdk.WaitForTerminalExitRequest{SessionId: sid, TerminalId: id})
	if werr != nil {
		if waitCtx.Err() == nil {
			return tools.CommandOutcome{}, fmt.Errorf("terminal/wait_for_exit: %w", werr)
		}
		// Stopped by us: the timeout or the prompt's cancellation.
		out.TimedOut = errors.Is(waitCtx.Err(), context.DeadlineExceeded) && ctx.Err() == nil
		out.Cancelled = ctx.Err() != nil
		_, _ = p.KillTerminal(cleanup, sdk.KillTerminalRequest{SessionId: sid, TerminalId: id})
		out.ExitCode, out.State = -1, "killed"
	} else {
		out.ExitCode, out.State = exitOf(exit.ExitCode, exit.Signal)
	}
	out.Output = r.output(cleanup, id)
	return out, nil
}

// output is what the terminal kept of the command's output.
func (r *terminalRunner) output(ctx context.Context, id string) string {
	got, err := r.s.peer.TerminalOutput(ctx, sdk.TerminalOutputRequest{SessionId: r.s.id, TerminalId: id})
	if err != nil {
		return ""
	}
	if got.Truncated {
		return "[earlier output truncated]\n" + got.Output
	}
	return got.Output
}

// exitOf maps ACP's exit status to ours: a signal is exit code -1 with
// the signal's name as the state.
func exitOf(code *int, signal *string) (int, string) {
	switch {
	case signal != nil && *signal != "":
		return -1, "signal: " + *signal
	case code != nil:
		return *code, fmt.Sprintf("exit status %d", *code)
	}
	return -1, "unknown"
}

// terminals maps tool calls to the terminals that show them.
type terminals struct {
	mu  sync.Mutex
	ids map[string]string
}

func (t *terminals) attach(callID, terminalID string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.ids == nil {
		t.ids = map[string]string{}
	}
	t.ids[callID] = terminalID
}

func (t *terminals) take(callID string) (string, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	id, ok := t.ids[callID]
	delete(t.ids, callID)
	return id, ok
}

// showTerminal embeds a command's terminal in its tool call, so the client
// shows the output live; the call's last update embeds it too.
func (s *session) showTerminal(ctx context.Context, callID, terminalID string) {
	s.terms.attach(callID, terminalID)
	s.send(context.WithoutCancel(ctx), sdk.UpdateToolCall(sdk.ToolCallId(callID),
		sdk.WithUpdateStatus(sdk.ToolCallStatusInProgress),
		sdk.WithUpdateContent([]sdk.ToolCallContent{sdk.ToolTerminalRef(terminalID)})))
}

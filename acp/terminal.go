package acp

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	sdk "github.com/coder/acp-go-sdk"

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
// watches the command live. The risk rules and the approval ran before it;
// the client's terminal is no sandbox, so Containment is zero and every
// command is judged as unsandboxed.
type terminalRunner struct{ s *session }

var _ tools.CommandRunner = (*terminalRunner)(nil)

// Containment implements tools.CommandRunner.
func (r *terminalRunner) Containment() tools.Containment { return tools.Containment{} }

// RunCommand implements tools.CommandRunner.
func (r *terminalRunner) RunCommand(ctx context.Context, req tools.CommandRequest) (tools.CommandOutcome, error) {
	p, sid := r.s.peer, r.s.id
	create := sdk.CreateTerminalRequest{SessionId: sid, Command: "bash", Args: []string{"-c", req.Command},
		OutputByteLimit: sdk.Ptr(terminalOutputLimit)}
	if req.Dir != "" {
		create.Cwd = sdk.Ptr(req.Dir)
	} else if roots := r.s.ws.Roots(); len(roots) > 0 {
		create.Cwd = sdk.Ptr(roots[0])
	}
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
	got, err := p.TerminalOutput(cleanup, sdk.TerminalOutputRequest{SessionId: sid, TerminalId: id})
	if err == nil {
		out.Output = got.Output
		if got.Truncated {
			out.Output = "[earlier output truncated]\n" + out.Output
		}
	}
	return out, nil
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

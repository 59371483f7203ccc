package acp

import (
	"context"
	"errors"
	"fmt"
	"time"

	sdk "github.com/coder/acp-go-sdk"
	"go.uber.org/zap"

	"github.com/agent-lsp/agent-lsp/tools"
)

// attachWait bounds how long the client's terminal may take to start the
// stub and have it connect; a terminal that cannot run this binary (a
// remote or containerised one) is given up on after it.
const attachWait = 10 * time.Second

// terminalExit is the answer to terminal/wait_for_exit.
type terminalExit struct {
	resp sdk.WaitForTerminalExitResponse
	err  error
}

// runAttached has the client run the stub in a terminal and waits for the
// command the stub starts. A stub that never starts it (the terminal
// cannot run this binary, or ended first, or took too long) leaves the
// command to our own runner.
func (r *terminalRunner) runAttached(ctx context.Context, req tools.CommandRequest, att *tools.Attachment) (tools.CommandOutcome, error) {
	p, sid := r.s.peer, r.s.id
	name, token := att.Env()
	create := sdk.CreateTerminalRequest{SessionId: sid, Command: att.Program(), Args: att.Args(),
		Env: []sdk.EnvVariable{{Name: name, Value: token}}, OutputByteLimit: sdk.Ptr(terminalOutputLimit), Cwd: r.cwd(req)}
	created, err := p.CreateTerminal(ctx, create)
	if err != nil {
		if ctx.Err() != nil {
			return tools.CommandOutcome{Cancelled: true, ExitCode: -1, State: "cancelled"}, nil
		}
		return r.fallback(ctx, req, fmt.Sprintf("terminal/create failed: %v", err))
	}
	id := created.TerminalId
	cleanup, cancelCleanup := context.WithTimeout(context.WithoutCancel(ctx), releaseWait)
	defer cancelCleanup()
	defer func() { _, _ = p.ReleaseTerminal(cleanup, sdk.ReleaseTerminalRequest{SessionId: sid, TerminalId: id}) }()
	kill := func() { _, _ = p.KillTerminal(cleanup, sdk.KillTerminalRequest{SessionId: sid, TerminalId: id}) }

	waitCtx, stopWait := context.WithCancel(ctx)
	if req.Timeout > 0 {
		waitCtx, stopWait = context.WithTimeout(waitCtx, req.Timeout)
	}
	exited := make(chan terminalExit, 1)
	go func() { // owner: this call; ends with the terminal or with waitCtx (stopped below)
		resp, err := p.WaitForTerminalExit(waitCtx, sdk.WaitForTerminalExitRequest{SessionId: sid, TerminalId: id})
		exited <- terminalExit{resp, err}
	}()
	var exit *terminalExit
	defer func() {
		stopWait()
		if exit == nil {
			<-exited
		}
	}()

	timer := time.NewTimer(r.attachWait)
	defer timer.Stop()
	select {
	case <-att.Started():
	case e := <-exited:
		exit = &e
		// Reports still in flight are read before deciding: a stub that
		// started the command and ended at once did run it.
		att.Settle()
		if !closed(att.Started()) {
			return r.fallback(ctx, req, "your terminal did not run agent-lsp's sandbox stub ("+describeExit(e)+")")
		}
	case <-timer.C:
		if att.Abandon() {
			kill()
			return r.fallback(ctx, req, fmt.Sprintf("agent-lsp's sandbox stub did not connect within %s", r.attachWait))
		}
		// The stub has the command, just now: it starts it or fails.
		select {
		case <-att.Started():
		case <-att.Done():
			kill()
			return r.fallback(ctx, req, "agent-lsp's sandbox stub could not start the command")
		case <-waitCtx.Done():
			kill()
			_ = att.Close()
			return stoppedOutcome(ctx, waitCtx), nil
		}
	case <-waitCtx.Done():
		kill()
		_ = att.Close()
		return stoppedOutcome(ctx, waitCtx), nil
	}
	// The command runs, in the client's terminal.
	if ap, ok := tools.ApprovalFrom(ctx); ok && ap.Action.CallID != "" {
		r.s.showTerminal(ctx, ap.Action.CallID, id)
	}
	var out tools.CommandOutcome
	if exit == nil {
		select {
		case e := <-exited:
			exit = &e
		case <-waitCtx.Done():
			// The terminal is killed, as the user sees it; the hang-up
			// makes a stub that survived that kill the command, and Close
			// kills the command's group when no stub reported its end.
			kill()
			_ = att.Close()
			out = stoppedOutcome(ctx, waitCtx)
		}
	}
	if exit != nil {
		if exit.err != nil {
			return tools.CommandOutcome{}, fmt.Errorf("terminal/wait_for_exit: %w", exit.err)
		}
		out.ExitCode, out.State = exitOf(exit.resp.ExitCode, exit.resp.Signal)
		att.Settle()
	}
	out.Output = r.output(cleanup, id)
	if !out.Cancelled && !out.TimedOut {
		att.Finish(&out)
	} else {
		out.Sandboxed = att.Sandboxed()
	}
	return out, nil
}

// stoppedOutcome is a command stopped by us: the timeout or the prompt's
// cancellation.
func stoppedOutcome(ctx, waitCtx context.Context) tools.CommandOutcome {
	return tools.CommandOutcome{ExitCode: -1, State: "killed", Cancelled: ctx.Err() != nil,
		TimedOut: errors.Is(waitCtx.Err(), context.DeadlineExceeded) && ctx.Err() == nil}
}

// fallback runs the command with our own runner, and says why.
func (r *terminalRunner) fallback(ctx context.Context, req tools.CommandRequest, why string) (tools.CommandOutcome, error) {
	r.s.log.Warn("the client's terminal could not run the command; running it ourselves", zap.String("why", why))
	out, err := r.local.RunCommand(ctx, req)
	if err != nil {
		return out, err
	}
	how := "agent-lsp ran it itself"
	if out.Sandboxed {
		how += ", in its sandbox"
	}
	out.Note = "(not run in your terminal: " + why + "; " + how + ")"
	return out, nil
}

// describeExit says how a terminal ended.
func describeExit(e terminalExit) string {
	if e.err != nil {
		return "terminal/wait_for_exit: " + e.err.Error()
	}
	_, state := exitOf(e.resp.ExitCode, e.resp.Signal)
	return state
}

// closed reports whether ch is closed.
func closed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

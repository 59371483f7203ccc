package tools

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"

	"github.com/agent-lsp/agent-lsp/tools/sandbox"
)

// ProcessRunner runs commands as child processes of the daemon, inside
// Sandbox when it is active.
type ProcessRunner struct {
	// Sandbox confines the commands; nil or inactive: they run
	// unconfined (approvals only).
	Sandbox *sandbox.Sandbox

	// commands are the running ones, which Freeze stops.
	commands commandSet
}

var _ CommandFreezer = (*ProcessRunner)(nil)

// Freeze implements CommandFreezer: every process of every command this
// runner is running (sandboxed or not) stops until thaw, and commands
// asked for meanwhile wait to start.
func (r *ProcessRunner) Freeze(ctx context.Context) (func(), error) {
	return r.commands.Freeze(ctx)
}

// NewProcessRunner returns a runner using sb (nil: no sandbox).
func NewProcessRunner(sb *sandbox.Sandbox) *ProcessRunner { return &ProcessRunner{Sandbox: sb} }

func (r *ProcessRunner) active() bool { return r.Sandbox != nil && r.Sandbox.Status().Active }

// Containment implements CommandRunner.
func (r *ProcessRunner) Containment() Containment {
	if !r.active() {
		return Containment{}
	}
	st := r.Sandbox.Status()
	return Containment{FS: st.ContainsFS(), Net: st.ContainsNet()}
}

// Summary is the sandbox's one-line status ("sandbox off: ...").
func (r *ProcessRunner) Summary() string {
	if r.Sandbox == nil {
		return "no sandbox"
	}
	return r.Sandbox.Status().Summary()
}

// RunCommand implements CommandRunner.
func (r *ProcessRunner) RunCommand(ctx context.Context, req CommandRequest) (CommandOutcome, error) {
	sandboxed := r.active() && !req.Unsandboxed
	if err := r.commands.admit(ctx); err != nil {
		return CommandOutcome{}, fmt.Errorf("run_bash: waiting for an edit to land: %w", err)
	}
	var root *commandRoot
	startedCalled := false
	// Registered once started (before anything waits for it: its pid
	// stays its own until then); forgotten once it has ended.
	started := func(p *os.Process) {
		startedCalled = true
		if p != nil {
			root = &commandRoot{pid: p.Pid, handle: openProcess(p.Pid)}
		}
		r.commands.registered(root)
	}
	defer func() {
		// runInGroup calls started unless it failed before Start; a
		// freeze waits for every admitted command to be accounted for.
		if !startedCalled {
			started(nil)
		}
		if root != nil {
			r.commands.ended(root)
		}
	}()
	var cmd *exec.Cmd
	if sandboxed {
		c, release, err := r.Sandbox.Command(req.Command, req.Dir, ChildEnviron())
		if err != nil {
			started(nil)
			return CommandOutcome{}, fmt.Errorf("run_bash: sandbox: %w", err)
		}
		cmd = c
		register := started
		started = func(p *os.Process) { release(); register(p) }
	} else {
		cmd = exec.Command("bash", "-c", req.Command)
		cmd.Dir = req.Dir
		cmd.Env = ChildEnviron()
		startsOwnGroup(cmd)
	}
	out, err := runInGroup(ctx, cmd, req, started)
	if err != nil {
		return out, err
	}
	out.Sandboxed = sandboxed
	if sandboxed && (out.ExitCode != 0 || out.TimedOut || r.Sandbox.Tripped(out.Output)) {
		out.Blocked = r.Sandbox.Explain(out.Output)
	}
	return out, nil
}

// runInGroup runs cmd (bash, in a process group of its own) and returns
// when the command has ended, by itself, by timeout or by ctx, with the
// whole group killed and the output read.
//
// Output goes through one os.Pipe shared by stdout and stderr (so they
// interleave as printed) instead of exec's copying goroutines: Wait then
// returns as soon as bash exits, the group can be killed before the
// output is drained, and the drain has a deadline, so no goroutine is left
// behind even when a descendant that escaped the group keeps the pipe open.
//
// The child gets SIGKILL when the daemon dies (Pdeathsig, Linux). The
// kernel sends it when the thread that forked the child exits, not the
// process, and the Go runtime may end idle threads: the goroutine that
// starts the command stays locked to its thread until Wait returns.
//
// started is called once Start has returned, before Wait (the sandbox's
// ruleset descriptor is then closed, and the runner learns the command's
// root process while its pid is still its own), with nil when Start
// failed.
func runInGroup(ctx context.Context, cmd *exec.Cmd, req CommandRequest, started func(*os.Process)) (CommandOutcome, error) {
	runCtx, cancel := context.WithTimeout(ctx, req.Timeout)
	defer cancel()

	cmd.Stdin = nil // /dev/null
	if req.Stdin != "" {
		// exec copies it in; Wait waits for the copy, which ends when the
		// command has read it or its group is killed (EPIPE).
		cmd.Stdin = strings.NewReader(req.Stdin)
	}
	r, w, err := os.Pipe()
	if err != nil {
		return CommandOutcome{}, fmt.Errorf("run_bash: %w", err)
	}
	cmd.Stdout, cmd.Stderr = w, w
	var errOut *splitStream
	if req.SplitStderr {
		if errOut, err = newSplitStream(); err != nil {
			r.Close()
			w.Close()
			return CommandOutcome{}, fmt.Errorf("run_bash: %w", err)
		}
		cmd.Stderr = errOut.w
	}

	startErr := make(chan error, 1)
	exited := make(chan struct{})
	go func() {
		defer close(exited)
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		err := cmd.Start()
		if err != nil {
			started(nil)
		} else {
			started(cmd.Process)
		}
		startErr <- err
		if err == nil {
			_ = cmd.Wait() // the outcome is read from cmd.ProcessState
		}
	}()
	if err := <-startErr; err != nil {
		r.Close()
		w.Close()
		errOut.close()
		return CommandOutcome{}, fmt.Errorf("run_bash: start bash: %w", err)
	}
	w.Close() // the children hold their copies; EOF comes when they are gone
	errOut.drain()

	out := newHeadTailBuffer(bashMaxOutput)
	drained := make(chan struct{})
	go func() {
		defer close(drained)
		_, _ = io.Copy(out, r) // ends at EOF or at the read deadline set below
	}()

	var run CommandOutcome
	select {
	case <-exited:
	case <-runCtx.Done():
		_ = killGroup(cmd.Process)
		<-exited
		run.Cancelled = ctx.Err() != nil
		run.TimedOut = !run.Cancelled
	}
	// Background jobs left behind are killed too: they would hold the pipe
	// (and the machine) after the call is over. bash is reaped by now, but
	// its pid, the group id, cannot be reused while the group has members.
	_ = killGroup(cmd.Process)
	_ = r.SetReadDeadline(time.Now().Add(bashDrainGrace))
	<-drained
	r.Close()
	run.Stderr = errOut.finish()

	run.Output = out.String()
	run.ExitCode = cmd.ProcessState.ExitCode()
	run.State = cmd.ProcessState.String()
	return run, nil
}

package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/agent-lsp/agent-lsp/permission"
)

const (
	bashDefaultTimeout = 2 * time.Minute
	bashMaxTimeout     = 10 * time.Minute
	bashMaxOutput      = 30 << 10 // head and tail kept, under the registry's 32 KiB cut
	// bashDrainGrace bounds the wait for output after the process group is
	// gone: a descendant that left the group (setsid) may hold the pipe
	// open forever.
	bashDrainGrace    = 2 * time.Second
	bashSummaryLength = 160 // runes of the command in the one-line summary
)

type runBashArgs struct {
	Command   string `json:"command"`
	TimeoutMs int64  `json:"timeout_ms,omitempty"`
}

type runBashTool struct{}

// NewRunBash returns the run_bash tool: a shell command in the workspace,
// in its own process group, with a timeout, captured output and a scrubbed
// environment.
func NewRunBash() Tool { return runBashTool{} }

func (runBashTool) Name() string { return "run_bash" }

func (runBashTool) Description() string {
	return "Run a command with `bash -c` in the workspace root (stdin /dev/null, no terminal). " +
		"Returns stdout+stderr (over 30 KiB: head and tail kept) and the exit code; non-zero exit is an error. " +
		"Timeout 2 min, timeout_ms up to 600000; on timeout the process group is killed, and background jobs die when the command ends. " +
		"API keys/tokens are removed from its environment. Use for builds, tests, git; read and search with read_file/grep/glob."
}

func (runBashTool) Schema() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{` +
		`"command":{"type":"string","description":"Bash command line"},` +
		`"timeout_ms":{"type":"integer","description":"Timeout in ms (default 120000, max 600000)"}},` +
		`"required":["command"],"additionalProperties":false}`)
}

func (runBashTool) Describe(raw json.RawMessage, env *Env) (permission.Action, error) {
	args, _, err := runBashParse(raw)
	if err != nil {
		return permission.Action{}, err
	}
	home, _ := os.UserHomeDir()
	a := permission.AssessShell(args.Command, env.Workspace.Roots(), home)
	// Never ReadOnly: even a harmless-looking command is only judged by a
	// parser, so a person (or a session rule) always decides.
	return permission.Action{
		Tool:    "run_bash",
		Summary: "run: " + oneLineSummary(args.Command, bashSummaryLength),
		Scope:   "run_bash:" + a.Scope,
		Risk:    a.Risk,
		Command: args.Command,
		Reasons: a.Reasons,
	}, nil
}

func (runBashTool) Run(ctx context.Context, raw json.RawMessage, env *Env) (Result, error) {
	args, timeout, err := runBashParse(raw)
	if err != nil {
		return Result{}, err
	}
	run, err := runInGroup(ctx, args.Command, env.Workspace.Roots()[0], timeout)
	if err != nil {
		return Result{}, err
	}

	var b strings.Builder
	if run.output == "" {
		b.WriteString("(no output)")
	} else {
		b.WriteString(strings.TrimSuffix(run.output, "\n"))
	}
	b.WriteByte('\n')
	res := Result{}
	switch {
	case run.cancelled:
		b.WriteString("cancelled; process group killed")
		res.IsError = true
	case run.timedOut:
		fmt.Fprintf(&b, "timed out after %s; process group killed", timeout)
		res.IsError = true
	case run.exitCode < 0:
		fmt.Fprintf(&b, "terminated: %s", run.state)
		res.IsError = true
	default:
		fmt.Fprintf(&b, "exit code %d", run.exitCode)
		res.IsError = run.exitCode != 0
	}
	if args.TimeoutMs > bashMaxTimeout.Milliseconds() {
		fmt.Fprintf(&b, "\n(timeout_ms %d was capped at %d)", args.TimeoutMs, bashMaxTimeout.Milliseconds())
	}
	if env.Notes != nil {
		if n := env.Notes(); n != "" {
			b.WriteString("\n" + n)
		}
	}
	res.Output = b.String()
	if run.cancelled {
		return res, fmt.Errorf("run_bash cancelled; process group killed: %w", ctx.Err())
	}
	return res, nil
}

func runBashParse(raw json.RawMessage) (runBashArgs, time.Duration, error) {
	var args runBashArgs
	if err := decodeArgs(raw, &args); err != nil {
		return args, 0, err
	}
	if strings.TrimSpace(args.Command) == "" {
		return args, 0, errors.New("command is empty")
	}
	if args.TimeoutMs < 0 {
		return args, 0, fmt.Errorf("timeout_ms must be positive, got %d", args.TimeoutMs)
	}
	timeout := bashDefaultTimeout
	if args.TimeoutMs > 0 {
		timeout = min(time.Duration(args.TimeoutMs)*time.Millisecond, bashMaxTimeout)
	}
	return args, timeout, nil
}

// bashRun is how one command ended.
type bashRun struct {
	output    string
	exitCode  int // -1 when killed by a signal
	state     string
	timedOut  bool
	cancelled bool
}

// runInGroup runs command under bash in dir, in a process group of its
// own, and returns when the command has ended, by itself, by timeout or by
// ctx, with the whole group killed and the output read.
//
// Output goes through one os.Pipe shared by stdout and stderr (so they
// interleave as printed) instead of exec's copying goroutines: Wait then
// returns as soon as bash exits, the group can be killed before the
// output is drained, and the drain has a deadline, so no goroutine is left
// behind even when a descendant that escaped the group keeps the pipe open.
func runInGroup(ctx context.Context, command, dir string, timeout time.Duration) (bashRun, error) {
	runCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	cmd := exec.Command("bash", "-c", command)
	cmd.Dir = dir
	cmd.Env = scrubEnv(os.Environ())
	cmd.Stdin = nil // /dev/null
	startsOwnGroup(cmd)
	r, w, err := os.Pipe()
	if err != nil {
		return bashRun{}, fmt.Errorf("run_bash: %w", err)
	}
	cmd.Stdout, cmd.Stderr = w, w
	if err := cmd.Start(); err != nil {
		r.Close()
		w.Close()
		return bashRun{}, fmt.Errorf("run_bash: start bash: %w", err)
	}
	w.Close() // the children hold their copies; EOF comes when they are gone

	out := newHeadTailBuffer(bashMaxOutput)
	drained := make(chan struct{})
	go func() {
		defer close(drained)
		_, _ = io.Copy(out, r) // ends at EOF or at the read deadline set below
	}()
	exited := make(chan struct{})
	go func() {
		defer close(exited)
		_ = cmd.Wait() // the outcome is read from cmd.ProcessState
	}()

	var run bashRun
	select {
	case <-exited:
	case <-runCtx.Done():
		_ = killGroup(cmd.Process)
		<-exited
		run.cancelled = ctx.Err() != nil
		run.timedOut = !run.cancelled
	}
	// Background jobs left behind are killed too: they would hold the pipe
	// (and the machine) after the call is over. bash is reaped by now, but
	// its pid, the group id, cannot be reused while the group has members.
	_ = killGroup(cmd.Process)
	_ = r.SetReadDeadline(time.Now().Add(bashDrainGrace))
	<-drained
	r.Close()

	run.output = out.String()
	run.exitCode = cmd.ProcessState.ExitCode()
	run.state = cmd.ProcessState.String()
	return run, nil
}

// oneLineSummary shortens a command for a one-line label.
func oneLineSummary(s string, maxRunes int) string {
	s = strings.TrimSpace(s)
	multi := false
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s, multi = strings.TrimSpace(s[:i]), true
	}
	if r := []rune(s); len(r) > maxRunes {
		return string(r[:maxRunes]) + "…"
	}
	if multi {
		return s + " …"
	}
	return s
}

package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
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
	// Sandbox false asks to run outside the OS sandbox: its own HIGH-risk
	// request, asked every time.
	Sandbox *bool `json:"sandbox,omitempty"`
}

// unsandboxed reports whether the call asks to leave the sandbox.
func (a runBashArgs) unsandboxed() bool { return a.Sandbox != nil && !*a.Sandbox }

// reasonUnsandboxed is the risk reason of a request to leave the sandbox.
const reasonUnsandboxed = "runs outside the OS sandbox: unconfined writes, secrets and network (asked every time)"

type runBashTool struct{}

// NewRunBash returns the run_bash tool: a shell command in the workspace,
// in its own process group, with a timeout, captured output and a scrubbed
// environment.
func NewRunBash() Tool { return runBashTool{} }

func (runBashTool) Name() string { return "run_bash" }

func (runBashTool) Description() string {
	return "Run a command with `bash -c` in the workspace root (stdin /dev/null, no terminal). " +
		"Returns stdout+stderr (head and tail of 30 KiB) and the exit code; non-zero is an error. " +
		"Timeout 2 min, timeout_ms up to 600000; the process group is killed at the end. No API keys in its env. " +
		"An OS sandbox may confine writes to the workspace+TMPDIR, hide ~/.ssh etc., allow only loopback: " +
		"refusals say \"blocked by the sandbox\"; sandbox:false asks the user."
}

func (runBashTool) Schema() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{` +
		`"command":{"type":"string","description":"Bash command line"},` +
		`"timeout_ms":{"type":"integer","description":"Timeout in ms (default 120000, max 600000)"},` +
		`"sandbox":{"type":"boolean","description":"false: run outside the OS sandbox (HIGH risk, the user is asked every time); default true"}},` +
		`"required":["command"],"additionalProperties":false}`)
}

func (runBashTool) Describe(_ context.Context, raw json.RawMessage, env *Env) (permission.Action, error) {
	args, _, err := runBashParse(raw)
	if err != nil {
		return permission.Action{}, err
	}
	home, _ := os.UserHomeDir()
	contained := runnerOf(env).Containment()
	leaves := args.unsandboxed() && contained.FS
	inside := contained.FS && !args.unsandboxed()
	a := permission.AssessShellIn(args.Command, permission.ShellContext{
		Roots: env.Workspace.Roots(), Home: home,
		SandboxFS: inside, SandboxNet: inside && contained.Net,
	})
	action := permission.Action{
		Tool:      "run_bash",
		Summary:   "run: " + oneLineSummary(args.Command, bashSummaryLength),
		Scope:     "run_bash:" + a.Scope,
		Risk:      a.Risk,
		Command:   args.Command,
		Reasons:   a.Reasons,
		Sandboxed: inside,
	}
	if leaves {
		action.Summary = "run outside the sandbox: " + oneLineSummary(args.Command, bashSummaryLength)
		action.Scope = "run_bash:unsandboxed:" + a.Scope
		action.Risk = max(action.Risk, permission.High)
		action.Reasons = append([]string{reasonUnsandboxed}, action.Reasons...)
	}
	// Never ReadOnly: even a harmless-looking command is only judged by a
	// parser, so a person (or a session rule, or the sandbox when the
	// session trusts it) always decides.
	return action, nil
}

func (runBashTool) Run(ctx context.Context, raw json.RawMessage, env *Env) (Result, error) {
	args, timeout, err := runBashParse(raw)
	if err != nil {
		return Result{}, err
	}
	run, err := runnerOf(env).RunCommand(ctx, CommandRequest{
		Command: args.Command, Dir: env.Workspace.Roots()[0], Timeout: timeout, Unsandboxed: args.unsandboxed(),
	})
	if err != nil {
		return Result{}, err
	}

	var b strings.Builder
	if run.Output == "" {
		b.WriteString("(no output)")
	} else {
		b.WriteString(strings.TrimSuffix(run.Output, "\n"))
	}
	b.WriteByte('\n')
	res := Result{}
	switch {
	case run.Cancelled:
		b.WriteString("cancelled; process group killed")
		res.IsError = true
	case run.TimedOut:
		fmt.Fprintf(&b, "timed out after %s; process group killed", timeout)
		res.IsError = true
	case run.ExitCode < 0:
		fmt.Fprintf(&b, "terminated: %s", run.State)
		res.IsError = true
	default:
		fmt.Fprintf(&b, "exit code %d", run.ExitCode)
		res.IsError = run.ExitCode != 0
	}
	if run.Blocked != "" {
		b.WriteString("\n" + run.Blocked)
	}
	if run.Note != "" {
		b.WriteString("\n" + run.Note)
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
	if run.Cancelled {
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

// oneLineSummary is a command on one line for a label: every line of it
// (a line break shown as \n) and every hidden character shown
// (permission.VisibleLine), the middle cut when too long, never the tail,
// where a dangerous command would hide.
func oneLineSummary(s string, maxRunes int) string {
	return permission.VisibleLine(strings.TrimSpace(s), maxRunes)
}

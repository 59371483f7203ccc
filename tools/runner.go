package tools

import (
	"context"
	"time"
)

// CommandRunner is who runs a shell command for run_bash: our own process
// runner (inside the OS sandbox where the platform has one), or an
// editor's terminal (ACP terminal/*). The risk rules and the approval come
// before either; the runner only runs what was allowed.
type CommandRunner interface {
	// Containment says what the runner's sandbox holds for a command run
	// inside it; the zero value when there is none.
	Containment() Containment
	// RunCommand runs one command to its end (by itself, by its timeout
	// or by ctx) and says how it ended. The error is for a command that
	// could not be started.
	RunCommand(ctx context.Context, req CommandRequest) (CommandOutcome, error)
}

// Containment is what an OS sandbox holds for the commands inside it.
type Containment struct {
	// FS: writes confined to the workspace and a private temp dir, the
	// secret stores unreadable.
	FS bool
	// Net: nothing the command sends leaves the machine.
	Net bool
}

// CommandRequest is one command to run.
type CommandRequest struct {
	Command string
	Dir     string // the working directory (a workspace root)
	Timeout time.Duration
	// Unsandboxed runs the command outside the sandbox (the user said yes
	// to that HIGH-risk request).
	Unsandboxed bool
	// Stdin is what the command reads ("": /dev/null). Our process runner
	// only: a hook's JSON input.
	Stdin string
	// SplitStderr keeps stderr apart in CommandOutcome.Stderr instead of
	// interleaved into Output (our process runner only: a hook's stdout is
	// its JSON answer, its stderr a reason).
	SplitStderr bool
}

// CommandOutcome is how a command ended.
type CommandOutcome struct {
	Output    string // stdout and stderr interleaved, head and tail kept
	Stderr    string // with SplitStderr: stderr (Output is then stdout)
	ExitCode  int    // -1 when killed by a signal
	State     string // the process state, for a signal's name
	TimedOut  bool
	Cancelled bool
	// Sandboxed: the command ran inside the OS sandbox.
	Sandboxed bool
	// Blocked explains, for the model, what the sandbox refused ("" when
	// nothing in the output points at it).
	Blocked string
	// Note tells the model and the user where the command ran when that is
	// not where they expect (the client's terminal could not run it, so the
	// agent did); "" otherwise.
	Note string
}

// runnerOf is the env's runner, or an unsandboxed process runner.
func runnerOf(env *Env) CommandRunner {
	if env != nil && env.Runner != nil {
		return env.Runner
	}
	return &ProcessRunner{}
}

package worktree

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"

	"github.com/agent-lsp/agent-lsp/tools"
)

// ErrNotARepository: the directory is in no git repository's work tree.
var ErrNotARepository = errors.New("not in a git repository")

// ErrUnsafeRepository: git refuses the repository because another user
// owns it (safe.directory). It is never overridden here: trusting a
// repository someone else controls is the user's decision, made in their
// own git configuration.
var ErrUnsafeRepository = errors.New("git refuses a repository owned by another user")

// gitError is a failed git call: its arguments and what it wrote on stderr.
type gitError struct {
	args   []string
	stderr string
	err    error
}

func (e *gitError) Error() string {
	msg := strings.TrimSpace(e.stderr)
	if msg == "" {
		msg = e.err.Error()
	}
	return fmt.Sprintf("git %s: %s", strings.Join(e.args, " "), msg)
}

func (e *gitError) Unwrap() error { return e.err }

// git runs `git <args>` in dir with the hostile-repository settings of
// guard and returns its stdout. stdin, when not nil, is its input.
func git(ctx context.Context, dir string, guard []string, stdin []byte, args ...string) ([]byte, error) {
	full := append(append(append([]string{"--no-pager"}, baseGuard...), guard...), args...)
	cmd := exec.CommandContext(ctx, "git", full...)
	cmd.Dir = dir
	cmd.Env = gitEnviron()
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	ownGroup(cmd)
	err := runOwned(cmd)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if unsafe(stderr.String()) {
			return nil, fmt.Errorf("%w: %s (git's safe.directory); run agent-lsp as the owner of the repository, "+
				"or add the directory to safe.directory in your own git configuration if you trust it", ErrUnsafeRepository, dir)
		}
		return nil, &gitError{args: args, stderr: stderr.String(), err: err}
	}
	return stdout.Bytes(), nil
}

// unsafe reports git's refusal of a repository another user owns.
func unsafe(stderr string) bool {
	return strings.Contains(stderr, "dubious ownership") || strings.Contains(stderr, "safe.directory")
}

// gitEnviron is a child's environment (no secrets) without the GIT_*
// variables, which could send git to another repository, work tree,
// index or configuration, or make it run a program; the author and
// committer names stay (who the user is). Prompts, editors and pagers
// are off: nobody is at git's terminal.
func gitEnviron() []string {
	var env []string
	for _, kv := range tools.ChildEnviron() {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, "GIT_") && !strings.HasPrefix(name, "GIT_AUTHOR_") && !strings.HasPrefix(name, "GIT_COMMITTER_") {
			continue
		}
		if name == "LC_ALL" || name == "LANGUAGE" {
			continue
		}
		env = append(env, kv)
	}
	// LC_ALL=C: git's messages (the safe.directory refusal) in one language.
	return append(env, "GIT_TERMINAL_PROMPT=0", "GIT_EDITOR=:", "GIT_PAGER=cat", "GIT_OPTIONAL_LOCKS=0", "LC_ALL=C")
}

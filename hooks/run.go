package hooks

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/agent-lsp/agent-lsp/tools"
)

const (
	defaultTimeout = 60 * time.Second
	maxTimeout     = 10 * time.Minute
)

// Runner runs a session's hooks: the user's, then the workspace's once
// the user trusted them as they are (workspace.go).
type Runner struct {
	config  Config              // the user's
	root    string              // the workspace root: the hooks' directory and $CLAUDE_PROJECT_DIR
	run     tools.CommandRunner // our process runner: in the OS sandbox when there is one
	log     *zap.Logger
	matcher sync.Map // matcher text → *regexp.Regexp (nil: every tool)
	// Notice receives what a hook says to the user (a failure, a
	// systemMessage); nil: logged only.
	Notice func(string)

	mu        sync.RWMutex
	workspace Workspace
	trusted   bool                    // the workspace's hooks run
	trust     func(hash string) error // records the user's trust in them
}

// NewRunner returns the runner of config's hooks for a workspace root,
// running them with run (which must take stdin: a tools.ProcessRunner).
// A nil or empty config runs nothing.
func NewRunner(config Config, root string, run tools.CommandRunner, log *zap.Logger) *Runner {
	if log == nil {
		log = zap.NewNop()
	}
	return &Runner{config: config, root: root, run: run, log: log}
}

// Active reports whether any hook that runs is configured for event.
func (r *Runner) Active(event string) bool {
	if r == nil {
		return false
	}
	for _, c := range r.configs() {
		if len(c[event]) > 0 {
			return true
		}
	}
	return false
}

// configs are the hooks that run: the user's, then the workspace's when
// trusted.
func (r *Runner) configs() []Config {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if r.trusted && r.workspace.Config != nil {
		return []Config{r.config, r.workspace.Config}
	}
	return []Config{r.config}
}

// matches reports whether a matcher applies to tool (our name or Claude
// Code's).
func (r *Runner) matches(matcher, tool string) bool {
	v, ok := r.matcher.Load(matcher)
	if !ok {
		re, _ := compileMatcher(matcher) // Parse checked it
		v, _ = r.matcher.LoadOrStore(matcher, re)
	}
	re := v.(*regexp.Regexp)
	return tool == "" || re == nil || re.MatchString(tool) || re.MatchString(toolName(tool))
}

// result is one hook's run.
type result struct {
	command string
	exit    int
	stdout  string
	stderr  string
	err     error // it could not run, or timed out
}

// runEvent runs the hooks of event whose matcher matches tool (the tool's
// name, or what the event's matcher names: a source, a reason; "": every
// matcher) with input on stdin, one after the other, in configuration order.
func (r *Runner) runEvent(ctx context.Context, event, tool string, input map[string]any) []result {
	if !r.Active(event) {
		return nil
	}
	input["hook_event_name"] = event
	input["cwd"] = r.root
	stdin, err := json.Marshal(input)
	if err != nil {
		return []result{{err: err}}
	}
	var out []result
	for _, c := range r.configs() {
		for _, m := range c[event] {
			if !r.matches(m.Matcher, tool) {
				continue
			}
			for _, h := range m.Hooks {
				if by, ok := endBy(ctx); ok && !time.Now().Before(by) {
					r.tell(fmt.Sprintf("hook %q did not run: the %s hooks ran out of time", oneLine(h.Command), event))
					continue
				}
				out = append(out, r.runOne(ctx, event, h, string(stdin)))
			}
		}
	}
	return out
}

func (r *Runner) runOne(ctx context.Context, event string, h Hook, stdin string) result {
	timeout := defaultTimeout
	if h.Timeout > 0 {
		timeout = min(time.Duration(h.Timeout*float64(time.Second)), maxTimeout)
	}
	if by, ok := endBy(ctx); ok { // the session is going away: a hung hook must not hold it (lifecycle.go)
		timeout = min(timeout, time.Until(by).Round(10*time.Millisecond))
	}
	// Scripts find the project the way Claude Code tells them.
	cmd := "export CLAUDE_PROJECT_DIR=" + shellQuote(r.root) + "\n" + h.Command
	o, err := r.run.RunCommand(ctx, tools.CommandRequest{Command: cmd, Dir: r.root, Timeout: timeout,
		Stdin: stdin, SplitStderr: true})
	res := result{command: h.Command, exit: o.ExitCode, stdout: o.Output, stderr: o.Stderr}
	switch {
	case err != nil:
		res.err = err
	case o.TimedOut:
		res.err = fmt.Errorf("timed out after %s", timeout)
	case o.Cancelled:
		res.err = context.Canceled
	}
	if res.err != nil || (res.exit != 0 && res.exit != 2) {
		r.tell(fmt.Sprintf("hook %q failed: %s", oneLine(h.Command), failure(res)))
	}
	return res
}

// failure says how a hook that did not succeed ended.
func failure(res result) string {
	if res.err != nil {
		return res.err.Error()
	}
	msg := fmt.Sprintf("exit %d", res.exit)
	if s := strings.TrimSpace(res.stderr); s != "" {
		msg += ": " + oneLine(s)
	}
	return msg
}

func (r *Runner) tell(msg string) {
	r.log.Info("hook", zap.String("message", msg))
	if r.Notice != nil {
		r.Notice(msg)
	}
}

// shellQuote quotes s for bash.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// oneLine is s on one line, cut.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 200 {
		return string(r[:199]) + "…"
	}
	return s
}

package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"runtime/debug"
	"strings"
	"sync"

	"go.uber.org/zap"

	"github.com/agent-lsp/agent-lsp/permission"
)

// Call is one tool call requested by the model.
type Call struct {
	ID, Name string
	Args     json.RawMessage
}

// Status is how a call ended.
type Status string

const (
	StatusCompleted Status = "completed"
	StatusFailed    Status = "failed"
	StatusDenied    Status = "denied"
)

// Outcome is a finished call: what the model reads back.
type Outcome struct {
	Call   Call
	Status Status
	Output string
}

// Gate decides whether an action may run; *permission.Policy implements it.
type Gate interface {
	Check(ctx context.Context, a permission.Action) (permission.Verdict, error)
}

// OutputLimiter is implemented by a tool that bounds and paginates its own
// output (read_file stops at a line and says which offset to read next). The
// registry then truncates its output at the larger of OutputLimit and
// ExecOptions.MaxOutput, so a cut in the middle does not hide lines the tool
// meant to show.
type OutputLimiter interface {
	OutputLimit() int
}

// ExecOptions tunes one Execute.
type ExecOptions struct {
	Gate        Gate // nil: allow everything (tests only)
	MaxParallel int  // default 8
	MaxOutput   int  // bytes per tool output before truncation, default 32 KiB
	// OnStart is called when a call starts (before permission), OnFinish as
	// each call finishes (any order). Execute never calls them concurrently,
	// so they need no locking of their own; they should return quickly.
	OnStart  func(c Call)
	OnFinish func(o Outcome)
	// Logger records panics in tools with their stacks; nil is zap.NewNop().
	Logger *zap.Logger
	// Hooks run around each call (the user's hooks); nil: none.
	Hooks CallHooks
}

// CallHooks run around each call: BeforeCall before the permission check
// (block refuses the call, the model reading reason; ask puts it to the
// user as HIGH risk whatever the policy would have done), AfterCall once
// it ran (what it returns is added to the result the model reads).
type CallHooks interface {
	BeforeCall(ctx context.Context, c Call) (block, ask bool, reason string)
	AfterCall(ctx context.Context, c Call, o Outcome) string
}

const (
	defaultMaxParallel = 8
	defaultMaxOutput   = 32 << 10
)

// toolNamePattern is a tool name's letters; the length (1 to 64) is
// checked apart: a bounded repetition compiles to that many copies of
// the class, paid at every start of the binary.
var toolNamePattern = regexp.MustCompile(`^[a-zA-Z0-9_-]+$`)

// Registry holds the tools offered to the model and runs their calls. It is
// safe for concurrent use: tools may be added or removed (an MCP server
// coming and going) while calls run.
type Registry struct {
	mu     sync.RWMutex
	tools  []Tool // registration order: the tool list is part of the prompt cache key
	byName map[string]Tool
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry {
	return &Registry{byName: map[string]Tool{}}
}

// Add registers t; a duplicate name or a name the model APIs would reject
// (not ^[a-zA-Z0-9_-]{1,64}$) is an error.
func (r *Registry) Add(t Tool) error {
	if t == nil {
		return errors.New("add tool: nil tool")
	}
	name := t.Name()
	if len(name) > 64 || !toolNamePattern.MatchString(name) {
		return fmt.Errorf("add tool %q: name must match ^[a-zA-Z0-9_-]{1,64}$", name)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.byName[name]; dup {
		return fmt.Errorf("add tool %q: a tool with that name is already registered", name)
	}
	r.tools = append(r.tools, t)
	r.byName[name] = t
	return nil
}

// Remove unregisters the named tool and reports whether it was there.
func (r *Registry) Remove(name string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.byName[name]; !ok {
		return false
	}
	delete(r.byName, name)
	for i, t := range r.tools {
		if t.Name() == name {
			r.tools = append(r.tools[:i:i], r.tools[i+1:]...)
			break
		}
	}
	return true
}

// Tools returns the registered tools in registration order.
func (r *Registry) Tools() []Tool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return append([]Tool(nil), r.tools...)
}

// Lookup returns the named tool. tool_search is every registry's own
// (tool_search.go): a request offers it only past the threshold (Offer).
func (r *Registry) Lookup(name string) (Tool, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	t, ok := r.byName[name]
	if !ok && name == ToolSearchName {
		return toolSearch{reg: r}, true
	}
	return t, ok
}

func (r *Registry) names() string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	names := make([]string, len(r.tools))
	for i, t := range r.tools {
		names[i] = t.Name()
	}
	return strings.Join(names, ", ")
}

// Execute runs the calls, up to opts.MaxParallel at a time, and returns
// their outcomes in the order of calls. Each call: OnStart, lookup, argument
// check, Describe, permission, Run, truncation, OnFinish. Nothing a tool does
// (an error, a panic) escapes as anything but a failed outcome. When ctx is
// cancelled, calls not yet started finish at once as failed "cancelled";
// running calls see ctx and are reported "cancelled" if they fail.
func (r *Registry) Execute(ctx context.Context, env *Env, calls []Call, opts ExecOptions) []Outcome {
	if opts.MaxParallel <= 0 {
		opts.MaxParallel = defaultMaxParallel
	}
	if opts.MaxOutput <= 0 {
		opts.MaxOutput = defaultMaxOutput
	}
	if opts.Logger == nil {
		opts.Logger = zap.NewNop()
	}
	ex := &execution{reg: r, env: env, opts: opts, outcomes: make([]Outcome, len(calls))}
	sem := make(chan struct{}, opts.MaxParallel)
	var wg sync.WaitGroup
	for i, c := range calls {
		if !acquire(ctx, sem) {
			ex.started(c)
			ex.finish(i, failed(c, "cancelled"), opts.MaxOutput)
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			var handled int // bytes of file text the call's edit carried
			o, limit := ex.run(ctx, c, &handled)
			ex.finish(i, o, limit)
			ReleaseMemory(handled)
		}()
	}
	wg.Wait()
	return ex.outcomes
}

// acquire takes a slot in sem unless ctx is done first.
func acquire(ctx context.Context, sem chan struct{}) bool {
	if ctx.Err() != nil {
		return false
	}
	select {
	case sem <- struct{}{}:
		if ctx.Err() != nil { // both were ready and select chose the slot
			<-sem
			return false
		}
		return true
	case <-ctx.Done():
		return false
	}
}

// execution is the state of one Execute.
type execution struct {
	reg      *Registry
	env      *Env
	opts     ExecOptions
	cbMu     sync.Mutex // serializes OnStart/OnFinish
	outcomes []Outcome  // each index written by exactly one goroutine
}

func (ex *execution) started(c Call) {
	if ex.opts.OnStart == nil {
		return
	}
	ex.cbMu.Lock()
	defer ex.cbMu.Unlock()
	ex.opts.OnStart(c)
}

func (ex *execution) finish(i int, o Outcome, limit int) {
	// A hidden credential a tool came across (a file holding a key) goes
	// neither to the model nor into the session.
	o.Output = Truncate(RedactSecrets(o.Output), limit)
	ex.outcomes[i] = o
	if ex.opts.OnFinish == nil {
		return
	}
	ex.cbMu.Lock()
	defer ex.cbMu.Unlock()
	ex.opts.OnFinish(o)
}

// run performs one call and returns its outcome and the output limit that
// applies to it; handled is set to the size of an approved edit's file text.
func (ex *execution) run(ctx context.Context, c Call, handled *int) (Outcome, int) {
	limit := ex.opts.MaxOutput
	ex.started(c)
	if ctx.Err() != nil {
		return failed(c, "cancelled"), limit
	}
	t, ok := ex.reg.Lookup(c.Name)
	if !ok {
		return failed(c, fmt.Sprintf("unknown tool %q; available: %s", c.Name, ex.reg.names())), limit
	}
	if IsDeferrable(t) && ex.env != nil && ex.env.ToolsFound != nil {
		// Called without a search (a name from an earlier session or a
		// summary): offered from now on, so the history's call has its tool.
		ex.env.ToolsFound([]string{t.Name()})
	}
	if l, ok := t.(OutputLimiter); ok && l.OutputLimit() > limit {
		limit = l.OutputLimit()
	}
	args, err := normalizeArgs(c.Args)
	if err != nil {
		return failed(c, "invalid arguments JSON: "+err.Error()), limit
	}

	var action permission.Action
	err = ex.protect(c, "describing", func() (err error) {
		action, err = t.Describe(ctx, args, ex.env)
		return err
	})
	switch {
	case err != nil && ctx.Err() != nil:
		return failed(c, "cancelled"), limit
	case err != nil:
		return failed(c, err.Error()), limit
	}
	if action.Tool == "" {
		action.Tool = t.Name()
	}
	if action.CallID == "" {
		action.CallID = c.ID
	}

	if ex.opts.Hooks != nil {
		block, ask, reason := ex.opts.Hooks.BeforeCall(ctx, c)
		if block {
			return Outcome{Call: c, Status: StatusDenied, Output: "blocked by a hook: " + nonEmptyReason(reason)}, limit
		}
		if ask {
			action = askedByHook(action, reason)
		}
	}

	verdict := permission.Verdict{Allowed: true}
	if ex.opts.Gate != nil {
		err := ex.protect(c, "checking permission for", func() (err error) {
			verdict, err = ex.opts.Gate.Check(ctx, action)
			return err
		})
		switch {
		case err != nil && ctx.Err() != nil:
			return failed(c, "cancelled"), limit
		case err != nil:
			return failed(c, "permission check failed: "+err.Error()), limit
		case !verdict.Allowed:
			reason := verdict.Reason
			if reason == "" {
				reason = "denied"
			}
			return Outcome{Call: c, Status: StatusDenied, Output: reason}, limit
		}
	}

	*handled = editBytes(action)
	// Run sees what was approved: an edit lands as it was shown (Approval).
	runCtx := WithApproval(ctx, Approval{Action: action, Verdict: verdict})
	var res Result
	err = ex.protect(c, "running", func() (err error) {
		res, err = t.Run(runCtx, args, ex.env)
		return err
	})
	switch {
	case err != nil && ctx.Err() != nil:
		return failed(c, "cancelled"), limit
	case err != nil:
		return failed(c, err.Error()), limit
	case res.IsError:
		return ex.after(ctx, failed(c, res.Output)), limit
	}
	return ex.after(ctx, Outcome{Call: c, Status: StatusCompleted, Output: res.Output}), limit
}

// protect runs f, turning a panic into an error (and a log entry with the
// stack): one broken tool must not take the agent down.
func (ex *execution) protect(c Call, doing string, f func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			ex.opts.Logger.Error("tool panicked",
				zap.String("tool", c.Name), zap.String("call_id", c.ID), zap.String("phase", doing),
				zap.Any("panic", p), zap.ByteString("stack", debug.Stack()))
			err = fmt.Errorf("internal error while %s tool %q: panic: %v", doing, c.Name, p)
		}
	}()
	return f()
}

// normalizeArgs checks that args is a JSON object; empty args are {}.
func normalizeArgs(raw json.RawMessage) (json.RawMessage, error) {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 {
		return json.RawMessage("{}"), nil
	}
	if _, err := argsObject(trimmed); err != nil {
		return nil, err
	}
	return trimmed, nil
}

func failed(c Call, output string) Outcome {
	return Outcome{Call: c, Status: StatusFailed, Output: output}
}

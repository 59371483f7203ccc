package control

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/permission"
	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/tools"
)

// Options configure a Controller: the configured model and what the user
// can switch to, the store, and the settings every new session starts with.
type Options struct {
	Store    *agent.Store // nil: sessions live in memory only
	Logger   *zap.Logger  // nil: no logging
	Model    provider.Config
	ModelErr error             // why Model cannot be reached (nil: it can)
	Provider provider.Provider // client for Model (nil when ModelErr != nil)
	// Connect builds a client for a switched (or restored) model; the
	// close function, when not nil, runs at Close. nil: switching fails.
	Connect func(provider.Config) (provider.Provider, func() error, error)
	Presets []Preset // the user's presets; the defaults are added (AllPresets)
	// Windows asks a server for the context window of a model the tables
	// do not know (once per model); nil: such a model keeps the default.
	Windows *provider.WindowCache
	// UserModel names the settings of Model the user chose for this run,
	// and where: keys "provider", "baseURL", "model", values a flag or a
	// variable ("--base-url", "AGENT_LSP_MODEL"). A resumed session's
	// stored model that differs in one of them is not restored: the
	// user's choice wins, and a model update says so.
	UserModel map[string]string
	Mode      agent.Mode // initial mode of new sessions ("": default)
	Budget    int        // context budget in tokens; 0: the agent's default
	Keep      int        // messages kept by compaction; 0: the default
	// SpendLimit is a new session's spend caps (spend.go); SpendLedger the
	// day's spend across processes (nil: the ledger beside Store).
	SpendLimit  agent.SpendLimit
	SpendLedger *agent.DayLedger
	// OnStoreError is told, once per session, that its file could not be
	// written and it goes on in memory only. nil: only logged.
	OnStoreError func(sessionID string, err error)
	// SystemPrompt is a new session's system prompt; nil:
	// DefaultSystemPrompt.
	SystemPrompt func(ws *tools.Workspace) string
	// Worktrees: sessions in their own git worktree (worktree_session.go).
	Worktrees WorktreeOptions
	// Rules are the persistent permission rules files (nil: none, and
	// "Always allow" is not offered); see permissions.go.
	Rules *permission.RuleFiles
	// IdleNotification: how long after a prompt, with no new one, the
	// Notification hooks hear the agent waits (0: 60 s; < 0: never).
	IdleNotification time.Duration
}

// Binding is what a front end gives one session: where its files live and
// how edits land, who approves, who runs commands, its tools, its MCP
// prompts, and where control updates go. ACP sessions each have their own.
type Binding struct {
	Workspace          *tools.Workspace
	Docs               tools.Documents // nil: the disk
	Notes              func() string   // tools.Env.Notes
	Runner             tools.CommandRunner
	Approver           permission.Approver // required: who decides what needs asking
	AutoAllowSandboxed bool
	Tools              *tools.Registry // builtins + MCP tools of this session
	Prompts            PromptSource    // MCP prompts (nil: none)
	// Hooks are the user's hooks for this session (nil: none).
	Hooks Hooks
	// SystemPromptAppend is the front end's client's own instructions,
	// appended to a new session's system prompt ("": none).
	SystemPromptAppend string
	// Subagents are the custom subagents, for /agents (nil: none).
	Subagents *SubagentCatalog
	// Notify receives the session's control updates (nil: dropped). It is
	// called on the goroutine of what caused the update (SetMode's caller,
	// a prompt's, a tool call's for a plan), before that returns, so an
	// update comes before the answer it belongs to; it must not block long.
	Notify func(Update)
	// Home is, for a session in a git worktree, the binding of the user's
	// checkout its work is brought back to; set by the controller
	// (worktree_session.go), nil otherwise.
	Home *Binding
	// BindWorktree, when set, binds a session of this binding's front end
	// in the git worktree at root, instead of WorktreeOptions.Bind (a
	// front end whose bindings are per connection: ACP).
	BindWorktree func(root string) (Binding, error)
}

// SessionInfo describes a loaded or stored session.
type SessionInfo struct {
	ID      string
	Title   string
	Created time.Time
	Updated time.Time
	// Root is the session's first workspace root: its binding's when
	// loaded, else as the store recorded it ("" for a session stored
	// before workspaces were recorded).
	Root string
	// Worktree is the git worktree the session owns (nil: none).
	Worktree *agent.Worktree
}

// Controller is the registry of a front end's sessions over one store.
type Controller struct {
	o   Options
	log *zap.Logger

	resumeMu sync.Mutex // one resume at a time: a session is never loaded twice

	mu      sync.Mutex // guards the fields below
	byID    map[string]*Session
	order   []*Session     // load order
	closers []func() error // of switched models' clients

	probeCtx    context.Context // of the window probes; cancelled by Close
	probeCancel context.CancelFunc
	probes      sync.WaitGroup

	spend spendState // the day's ledger (spend.go)
}

// New makes a controller; it starts nothing.
func New(o Options) *Controller {
	log := o.Logger
	if log == nil {
		log = zap.NewNop()
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Controller{o: o, log: log, byID: map[string]*Session{}, probeCtx: ctx, probeCancel: cancel}
}

// Presets are the user's presets and the defaults (AllPresets).
func (c *Controller) Presets() []Preset { return AllPresets(c.o.Presets) }

// agentConfig wires a session to its binding and the controller's model;
// id is the session's, set once it exists (hooks_lifecycle.go).
func (c *Controller) agentConfig(b Binding, id *string) (agent.Config, error) {
	if b.Workspace == nil {
		return agent.Config{}, ErrNotInitialized
	}
	if b.Approver == nil {
		return agent.Config{}, errors.New("a session needs an approver")
	}
	gate := permission.NewPolicy(approverFor(b, id))
	gate.SetAutoAllowSandboxedCommands(b.AutoAllowSandboxed)
	c.applyRules(gate, b.Workspace)
	docs := b.Docs
	if docs == nil {
		docs = &tools.DiskDocuments{Workspace: b.Workspace}
	}
	env := &tools.Env{Workspace: b.Workspace, Docs: docs, Notes: b.Notes}
	var hooks agent.Hooks
	if b.Hooks != nil {
		hooks = b.Hooks
	}
	if b.Runner != nil {
		env.Runner = b.Runner
	}
	mode := c.o.Mode
	if mode == "" {
		mode = agent.ModeDefault
	}
	cfg := agent.Config{
		Provider:  c.o.Provider,
		Model:     c.o.Model.Model,
		MaxTokens: c.o.Model.MaxTokens,
		Thinking:  c.o.Model.ThinkingOption(),
		Free:      c.o.Model.Free,
		Budget:    c.o.Budget,
		Keep:      c.o.Keep,
		Tools:     b.Tools,
		Env:       env,
		Hooks:     hooks,
		Gate:      gate,
		Store:     c.o.Store,
		Logger:    c.log,
		Mode:      mode,
		Spend:     c.newSpend(b),
	}
	return cfg, nil
}

// onStoreError routes the store failure of session *id to
// Options.OnStoreError.
func (c *Controller) onStoreError(cfg *agent.Config, id *string) {
	cfg.OnStoreError = func(err error) {
		if c.o.OnStoreError != nil { // the front end tells the user: a warning log would say it twice
			c.log.Info("session no longer saved", zap.String("session", *id), zap.Error(err))
			c.o.OnStoreError(*id, err)
			return
		}
		c.log.Warn("session no longer saved", zap.String("session", *id), zap.Error(err))
	}
}

// NewSession starts a session bound to b; its id is the agent session's,
// the one its file in the store is named after.
func (c *Controller) NewSession(b Binding, title string) (*Session, error) {
	// agent.NewSession writes nothing (its records go with the first
	// round), so id is set before any write can fail.
	var id string
	cfg, err := c.agentConfig(b, &id)
	if err != nil {
		return nil, err
	}
	c.onStoreError(&cfg, &id)
	var s *Session
	bindSubagentModel(&cfg, &s)
	system := c.systemPrompt(b.Workspace)
	if extra := strings.TrimSpace(b.SystemPromptAppend); extra != "" {
		system += "\n\nInstructions from the client:\n" + extra + "\n"
	}
	a := agent.NewSession(cfg, system)
	id = a.ID()
	now := time.Now()
	s = newSession(c, a, b, strings.TrimSpace(title), now, now)
	s.learnWindow(c.o.Model, 0)
	c.add(s)
	return s, nil
}

// Open returns a loaded session, or resumes a stored one bound to b (a
// loaded session keeps its own binding): after a restart, a session of the
// earlier run continues, on the model it was switched to when that can
// still be reached.
func (c *Controller) Open(id string, b Binding) (*Session, error) {
	if s, ok := c.Get(id); ok {
		return s, nil
	}
	if c.o.Store == nil || id == "" {
		return nil, unknownSession(id)
	}
	c.resumeMu.Lock()
	defer c.resumeMu.Unlock()
	if s, ok := c.Get(id); ok { // resumed while this one waited
		return s, nil
	}
	info, ok := c.stored(id)
	if !ok {
		return nil, unknownSession(id)
	}
	b, wt, err := c.rebindStored(info, b)
	if err != nil {
		return nil, err
	}
	cfg, err := c.agentConfig(b, &id)
	if err != nil {
		return nil, err
	}
	cfg.Worktree = wt
	c.onStoreError(&cfg, &id)
	var s *Session
	bindSubagentModel(&cfg, &s)
	a, err := agent.ResumeSession(cfg, id)
	if err != nil {
		return nil, &kindError{kind: ErrInvalid, msg: fmt.Sprintf("session %q cannot be resumed: %v", id, err), err: err}
	}
	created := info.CreatedAt
	if created.IsZero() {
		created = info.UpdatedAt
	}
	s = newSession(c, a, b, info.Title, created, info.UpdatedAt)
	s.restoreModel() // before any request can reach it
	s.learnWindow(s.modelConfig(), s.agent.Model().ContextWindow)
	c.add(s)
	c.log.Info("session resumed", zap.String("session", id), zap.Int("messages", len(a.History())))
	return s, nil
}

func (c *Controller) add(s *Session) {
	c.mu.Lock()
	c.byID[s.id] = s
	c.order = append(c.order, s)
	c.mu.Unlock()
}

// Get returns a loaded session.
func (c *Controller) Get(id string) (*Session, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	s, ok := c.byID[id]
	return s, ok
}

// Known reports whether id is a loaded or a stored session.
func (c *Controller) Known(id string) bool {
	if _, ok := c.Get(id); ok {
		return true
	}
	_, ok := c.stored(id)
	return ok
}

// Loaded is every loaded session, in load order.
func (c *Controller) Loaded() []*Session {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]*Session(nil), c.order...)
}

// stored finds a session in the store. Ids come from the user; only the
// store's own listing names files, so an id never becomes a path here.
func (c *Controller) stored(id string) (agent.SessionInfo, bool) {
	for _, info := range c.storedSessions() {
		if info.ID == id {
			return info, true
		}
	}
	return agent.SessionInfo{}, false
}

func (c *Controller) storedSessions() []agent.SessionInfo {
	if c.o.Store == nil {
		return nil
	}
	infos, err := c.o.Store.List()
	if err != nil {
		c.log.Warn("listing stored sessions", zap.Error(err))
		return nil
	}
	return infos
}

// List is every session, loaded or stored, once each (a loaded session's
// live title and times win), most recently updated first.
func (c *Controller) List() []SessionInfo {
	out := []SessionInfo{}
	seen := map[string]bool{}
	for _, s := range c.Loaded() {
		out = append(out, s.info())
		seen[s.id] = true
	}
	for _, info := range c.storedSessions() {
		if seen[info.ID] {
			continue
		}
		created := info.CreatedAt
		if created.IsZero() {
			created = info.UpdatedAt
		}
		out = append(out, SessionInfo{ID: info.ID, Title: info.Title, Created: created, Updated: info.UpdatedAt, Root: info.Workspace,
			Worktree: info.Worktree})
	}
	slices.SortStableFunc(out, func(a, b SessionInfo) int {
		return cmp.Or(b.Updated.Compare(a.Updated), b.Created.Compare(a.Created), strings.Compare(b.ID, a.ID))
	})
	return out
}

// CancelAll cancels every running prompt of every loaded session and
// returns how many were cancelled.
func (c *Controller) CancelAll(cause error) int {
	n := 0
	for _, s := range c.Loaded() {
		n += s.Cancel(cause)
	}
	return n
}

// Close closes the clients of switched models.
func (c *Controller) Close() error {
	c.EndSessions(context.Background(), EndOther) // bounded; a no-op for sessions a front end ended already
	c.probeCancel()
	c.probes.Wait()
	c.mu.Lock()
	closers := c.closers
	c.closers = nil
	c.mu.Unlock()
	var errs []error
	for _, f := range closers {
		if err := f(); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

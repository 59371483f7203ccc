package agent

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/agent-lsp/agent-lsp/agent/contentstore"
	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/tools"
)

// Defaults applied by NewSession to zero Config fields.
const (
	DefaultMaxRounds   = 50
	DefaultMaxParallel = 8
	DefaultMaxOutput   = 32 << 10
)

// Config is what a Session talks to and its limits.
type Config struct {
	Provider  provider.Provider
	Model     string
	MaxTokens int // 0: the dialect's default
	Thinking  provider.Thinking
	// Tools offered to the model; nil offers none. The specs are taken from
	// the registry at the start of each prompt, in registration order.
	Tools *tools.Registry
	Env   *tools.Env // what tool calls run against; required with Tools
	Gate  tools.Gate // the permission policy; nil allows everything (tests only)
	// Hooks are the user's hooks (hooks.go); nil: none.
	Hooks Hooks
	// MaxRounds bounds the model calls of one prompt (default 50).
	MaxRounds int
	// MaxParallel bounds the tool calls of one round running at once (default 8).
	MaxParallel int
	// MaxOutput bounds one tool output in bytes before truncation (default 32 KiB).
	MaxOutput int
	// MaxAnswerBytes bounds one answer's text, reasoning and tool-call
	// arguments together (default DefaultMaxAnswerBytes); MaxToolCalls
	// bounds its tool calls (default DefaultMaxToolCalls).
	MaxAnswerBytes, MaxToolCalls int
	// Budget is the most tokens a request may hold: when the next request
	// would pass it, the history is compacted first. 0: DefaultBudget(Model).
	Budget int
	// Keep is how many recent messages compaction keeps verbatim (more when
	// needed to keep tool calls with their results). 0: DefaultKeep.
	Keep int
	// Store persists the session (one JSONL file per session); nil keeps it
	// in memory only.
	Store *Store
	// Pricing prices the model calls for the cost estimate, for every
	// model the session talks to; nil: the price table's entry of the
	// current model, and an unknown cost for a model it does not know.
	Pricing *Pricing
	// Free: the configured model costs nothing (the user says so of a
	// local server), so its calls cost $0; unlike Pricing it does not hold
	// for a model the session is switched to.
	Free bool
	// Spend is the accounting every model call passes through before it is
	// sent, with the caps that may refuse it (spend.go); nil: none. Sessions
	// that share one (a subagent's) count against the same caps.
	Spend *Spend
	// Now is the clock for prices and records; nil: time.Now.
	Now    func() time.Time
	Logger *zap.Logger // nil: no logging
	// Mode is the session's mode at the start ("": ModeDefault); a resumed
	// session keeps the mode it had stored instead.
	Mode Mode
	// OnStoreError is called once, when a write to Store fails (the state
	// directory is unwritable or full): from then on the session goes on
	// in memory only. It may run on a tool call's goroutine. nil: the
	// failure is only logged.
	OnStoreError func(err error)
	// Worktree is the git worktree the session was made in, stored in
	// its header (store_worktree.go); nil: none.
	Worktree *Worktree
	// SubagentModel connects the model a custom subagent names; nil: a
	// custom subagent naming a model talks to the session's.
	SubagentModel SubagentModelFunc
}

// Session is one conversation. Its history starts with the system prompt
// message and only ever holds a valid conversation: every tool call in it
// has exactly one result.
//
// One prompt runs at a time: a second Prompt waits for the first to end (or
// for its own context to be cancelled).
//
// With a Store, the session's file is written ahead: the user message when
// a prompt starts, the model's turn before its tool calls run, and each
// tool result as its call finishes, so a crash loses at most the calls in
// flight; ResumeSession picks the session up after a restart and answers
// those calls as interrupted.
type Session struct {
	cfg     Config
	id      string
	created time.Time
	busy    chan struct{} // a one-slot semaphore: held while a prompt or a compaction runs
	writeMu sync.Mutex    // one commit at a time (tool results commit from their goroutines)

	// env is Config.Env with the session's plan sink and read log; gate is Config.Gate
	// behind the mode's refusal of tools it does not offer.
	env  *tools.Env
	gate tools.Gate
	// budgetFixed and pricingFixed: Config set them, so a model switch
	// keeps them.
	budgetFixed, pricingFixed bool
	limits                    answerLimits // from Config, for every answer

	// deferral: whether requests defer tools behind tool_search, kept
	// from request to request (tools/tool_search_sticky.go; its own lock).
	deferral tools.ToolDeferral

	mu      sync.Mutex // guards the fields below
	model   modelState
	mode    Mode
	plan    []tools.TodoItem
	found   []string        // the tools tool_search found, in order (tool_search.go)
	out     *serialListener // the running prompt's listener, for plan events
	steer   SteerSource     // where the running prompt's steer messages come from (steer.go)
	history []provider.Message
	cp      checkpoints         // per-prompt file states, for rewind (checkpoint.go)
	content *contentstore.Store // the checkpoints' texts (checkpoint_content.go); set once
	calib   calibration
	totals  Totals
	// pending are the records not yet written; commit writes them.
	pending []record
	// started: the file has its header. storeFailed: a write failed, and
	// the session is no longer persisted (a half-written batch must not be
	// followed by more).
	started, storeFailed bool

	// storedModel is the model record stored with the session (nil: the
	// configured model); see ModelSettings.Record. Guarded by mu.
	storedModel *ModelRecord
	// spendPrev is the previous request's messages and model, for the
	// cached prefix of the next one's projected cost (spend_session.go).
	spendPrev      []provider.Message
	spendPrevModel string
	capped         bool // the last prompt stopped at a spend cap

	children subagentLog // the task calls' children (subagent_store.go)
}

// NewSession starts a conversation whose first message is the system
// prompt (none when systemPrompt is empty).
func NewSession(cfg Config, systemPrompt string) *Session {
	s := newSession(cfg)
	s.id = newSessionID(s.created)
	s.content = openContent(cfg.Store, s.id)
	if systemPrompt != "" {
		s.append(provider.Message{Role: provider.RoleSystem, Text: systemPrompt})
	}
	if s.mode != ModeDefault && cfg.Store != nil {
		s.pending = append(s.pending, record{Type: recMode, Mode: s.mode}) // written with the first round
	}
	return s
}

// ResumeSession loads the stored session id from cfg.Store: its history as
// of the last complete round, its usage totals and its calibration. The
// stored system prompt is kept, so the resumed requests share their prefix
// with the ones before the restart. The session talks to cfg's model: when
// it was switched to another one, StoredModel returns that model's record
// for the front end to reconnect it.
func ResumeSession(cfg Config, id string) (*Session, error) {
	if cfg.Store == nil {
		return nil, errors.New("resume session: no session store configured")
	}
	l, err := cfg.Store.load(id)
	if err != nil {
		return nil, fmt.Errorf("resume session: %w", err)
	}
	if l.mode != "" {
		cfg.Mode = l.mode
	}
	s := newSession(cfg)
	s.id, s.history, s.totals, s.calib, s.started = id, l.history, l.totals, l.calib, true
	s.plan, s.found = l.plan, l.found
	s.children.ended = l.children
	s.content = l.texts.content
	if l.texts.err != nil {
		s.storeFailure(l.texts.err)
	}
	s.storedModel = l.model
	if cfg.Spend != nil {
		cfg.Spend.seed(l.totals) // the session's cap counts what it spent before the restart
	}
	s.cp.list = validCheckpoints(l.cps, len(l.history))
	if l.header.Created != nil {
		s.created = *l.header.Created
	}
	return s, nil
}

func newSession(cfg Config) *Session {
	if cfg.MaxRounds <= 0 {
		cfg.MaxRounds = DefaultMaxRounds
	}
	if cfg.MaxParallel <= 0 {
		cfg.MaxParallel = DefaultMaxParallel
	}
	if cfg.MaxOutput <= 0 {
		cfg.MaxOutput = DefaultMaxOutput
	}
	if cfg.MaxAnswerBytes <= 0 {
		cfg.MaxAnswerBytes = DefaultMaxAnswerBytes
	}
	if cfg.MaxToolCalls <= 0 {
		cfg.MaxToolCalls = DefaultMaxToolCalls
	}
	if cfg.Logger == nil {
		cfg.Logger = zap.NewNop()
	}
	budgetFixed, pricingFixed := cfg.Budget > 0, cfg.Pricing != nil
	if cfg.Budget <= 0 {
		cfg.Budget = DefaultBudget(cfg.Model)
	}
	if cfg.Keep <= 0 {
		cfg.Keep = DefaultKeep
	}
	pricing := cfg.Pricing
	switch {
	case pricing != nil:
	case cfg.Free:
		free := freePricing
		pricing = &free
	default:
		pricing = PricingFor(cfg.Model)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Mode == "" {
		cfg.Mode = ModeDefault
	}
	s := &Session{cfg: cfg, created: cfg.Now(), busy: make(chan struct{}, 1),
		budgetFixed: budgetFixed, pricingFixed: pricingFixed,
		limits: answerLimits{maxBytes: cfg.MaxAnswerBytes, maxCalls: cfg.MaxToolCalls}, mode: cfg.Mode,
		model: modelState{ModelSettings: ModelSettings{Provider: cfg.Provider, Model: cfg.Model,
			MaxTokens: cfg.MaxTokens, Thinking: cfg.Thinking}, budget: cfg.Budget, window: knownWindow(cfg.Model), pricing: pricing}}
	env := tools.Env{}
	if cfg.Env != nil {
		env = *cfg.Env
	}
	env.Plan = s.setPlan
	env.ToolsFound = s.addFoundTools
	// What this session's model read is its own: the base of its writes.
	env.Reads = tools.NewReadLog()
	env.Web = tools.NewWebCache() // a page fetched twice in one session is fetched once
	if env.Docs != nil {
		// Every change a tool makes is recorded in the prompt's checkpoint.
		s.cp.docs = env.Docs
		env.Docs = checkpointDocs{inner: env.Docs, s: s}
	}
	s.env = &env
	s.gate = modeGate{s: s, inner: cfg.Gate}
	if g, ok := cfg.Gate.(autoEditGate); ok {
		g.SetAutoAllowWorkspaceEdits(cfg.Mode == ModeAutoEdit)
	}
	return s
}

// ID names the session in its store (and to front ends).
func (s *Session) ID() string { return s.id }

// Totals returns the session's running usage and cost totals.
func (s *Session) Totals() Totals {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.totals
}

// History returns a copy of the conversation so far.
func (s *Session) History() []provider.Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]provider.Message, len(s.history))
	for i, m := range s.history {
		m.ToolCalls = slices.Clone(m.ToolCalls)
		out[i] = m
	}
	return out
}

// Outcome is how a prompt ended.
type Outcome struct {
	StopReason StopReason
	Text       string         // the last assistant text the prompt added to the history
	Usage      provider.Usage // summed over the prompt's rounds
	Rounds     int            // model calls made
	Err        error          // set for "error" and "cancelled"
	// Notice is the line every front end shows when the prompt ended at a
	// limit (max_rounds, answer_cut, tool_call_limit); "" otherwise.
	Notice string
}

// Prompt sends one user prompt and runs rounds (model call, then its tool
// calls) until the model ends its turn, a limit is hit, the model call
// fails, or ctx is cancelled. Events go to l (may be nil); the last one is
// always prompt_end.
//
// The user message stays in the history whatever happens, so the next
// prompt continues the conversation; a round whose model call failed or was
// cancelled adds nothing (its partial turn is dropped).
func (s *Session) Prompt(ctx context.Context, text string, l Listener) Outcome {
	return s.prompt(ctx, text, nil, l)
}

// prompt runs one prompt whose user message is text with images.
func (s *Session) prompt(ctx context.Context, text string, images []provider.Image, l Listener) Outcome {
	out := &serialListener{l: l}
	select {
	case s.busy <- struct{}{}:
	case <-ctx.Done():
		return s.end(out, Outcome{StopReason: StopCancelled, Err: context.Cause(ctx)})
	}
	defer func() { <-s.busy }()

	if ctx.Err() != nil {
		return s.end(out, Outcome{StopReason: StopCancelled, Err: context.Cause(ctx)})
	}
	if text == "" {
		return s.end(out, Outcome{StopReason: StopError, Err: errors.New("empty prompt")})
	}
	s.beginCheckpoint(text)
	if note := s.Mode().note(); note != "" {
		text += "\n\n" + note
	}
	s.append(provider.Message{Role: provider.RoleUser, Text: text, Images: images})
	// Written now: a session whose first model call is cut by a crash is
	// still stored, listed and resumable.
	s.commit()
	s.mu.Lock()
	s.out = out
	s.mu.Unlock()
	// The prompt's task calls run children (subagent_run.go): their usage is the prompt's too.
	ctx, children := s.withSubagentTurn(ctx, out)
	o := s.run(ctx, out)
	o.Usage = o.Usage.Add(children.usage())
	s.mu.Lock()
	s.out = nil
	s.mu.Unlock()
	s.commit() // whatever was queued while the last round ran (a mode change)
	s.collectContent()
	return s.end(out, o)
}

// end reports the outcome as the prompt's last event and returns it.
func (s *Session) end(out *serialListener, o Outcome) Outcome {
	o.Notice = s.notice(o.StopReason)
	s.setCapped(o.StopReason == StopSpendLimit)
	out.emit(Event{Kind: EventPromptEnd, Round: o.Rounds, Text: o.Text,
		StopReason: o.StopReason, Usage: o.Usage, Err: o.Err, Notice: o.Notice})
	s.cfg.Logger.Debug("prompt ended", zap.String("stop", string(o.StopReason)),
		zap.Int("rounds", o.Rounds), zap.Int("prompt_tokens", o.Usage.PromptTokens),
		zap.Int("completion_tokens", o.Usage.CompletionTokens), zap.Error(o.Err))
	return o
}

// append adds messages to the history and queues their records.
func (s *Session) append(ms ...provider.Message) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.history = append(s.history, ms...)
	if s.cfg.Store != nil {
		for i := range ms {
			s.pending = append(s.pending, record{Type: recMessage, Message: &ms[i]})
		}
	}
}

// appendResults adds a round's tool results, already recorded one by one
// as each call finished (recordResult), to the history.
func (s *Session) appendResults(ms []provider.Message) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.history = append(s.history, ms...)
}

// snapshot returns the history for a request. The provider may read it
// while the loop appends later messages: appends never touch the elements
// it holds.
func (s *Session) snapshot() []provider.Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.history[:len(s.history):len(s.history)]
}

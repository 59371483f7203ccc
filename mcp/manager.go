package mcp

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/zap"

	"github.com/agent-lsp/agent-lsp/tools"
)

// ServerStatus is one server's state, for `agent/mcpStatus` and the chat.
type ServerStatus struct {
	Name            string `json:"name"`
	State           State  `json:"state"`
	ProtocolVersion string `json:"protocolVersion,omitempty"`
	Tools           int    `json:"tools"`
	Error           string `json:"error,omitempty"`
}

// Manager runs the configured MCP servers and keeps their tools in a
// tools.Registry: an MCP tool is an ordinary tool from then on.
type Manager struct {
	reg   *tools.Registry
	roots []string
	log   *zap.Logger

	ctx    context.Context // ends at Close: every background job watches it
	cancel context.CancelFunc
	wg     sync.WaitGroup // background jobs

	mu       sync.Mutex
	servers  map[string]*server
	onChange []func()
	stateCh  chan struct{} // closed and replaced at every change
	closed   bool
	notifyMu sync.Mutex // serializes the OnChange listeners
	spawn    *spawner   // forks the stdio servers from a thread that outlives them

	warnUncontained sync.Once // no PID namespace for servers: said once (containTree)

	// Tunables; tests shorten them.
	connectTimeout  time.Duration // one connect attempt, and one tool listing
	discoverTimeout time.Duration // the first attempt, whose server/discover a legacy server may ignore
	probeTimeout    time.Duration // liveness probe after a timed-out call
	backoffBase     time.Duration
	backoffMax      time.Duration
	clock           clock // the backoff's time source
	closeTimeout    time.Duration
	// wrapTransport, when set, wraps every transport (tests log the wire).
	wrapTransport func(server string, t sdk.Transport) sdk.Transport
}

// NewManager returns a manager that mounts tools into reg and advertises
// roots (absolute workspace directories) to the servers. logger nil is
// zap.NewNop().
func NewManager(reg *tools.Registry, roots []string, logger *zap.Logger) *Manager {
	if logger == nil {
		logger = zap.NewNop()
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Manager{
		reg: reg, roots: append([]string(nil), roots...), log: logger,
		ctx: ctx, cancel: cancel,
		servers:        map[string]*server{},
		stateCh:        make(chan struct{}),
		spawn:          newSpawner(),
		connectTimeout: 30 * time.Second,
		// A server ignoring server/discover costs this long before the
		// initialize retry; a modern server merely slow to start (npx
		// fetching a package) and caught by it is only asked for 2025-11-25.
		discoverTimeout: 10 * time.Second,
		probeTimeout:    5 * time.Second,
		backoffBase:     time.Second,
		backoffMax:      time.Minute,
		clock:           systemClock{},
		closeTimeout:    10 * time.Second,
	}
}

// Start starts the servers concurrently in the background and returns at
// once; Status shows them "starting" until each is ready or down. A server
// whose name is already running is skipped. Only ctx's values are kept, not
// its cancellation: it is typically a request's context, which ends as soon
// as Start returns, while the servers live until Close.
func (m *Manager) Start(ctx context.Context, configs []ServerConfig) {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return
	}
	names := make([]string, 0, len(m.servers)+len(configs))
	for n := range m.servers {
		names = append(names, n)
	}
	var fresh []ServerConfig
	seen := map[string]bool{}
	for _, cfg := range configs {
		if _, dup := m.servers[cfg.Name]; dup || seen[cfg.Name] {
			m.log.Warn("MCP server already started; ignored", zap.String("server", cfg.Name))
			continue
		}
		seen[cfg.Name] = true
		names = append(names, cfg.Name)
		fresh = append(fresh, cfg)
	}
	prefixes := serverPrefixes(names)
	var started []*server
	for _, cfg := range fresh {
		s := &server{m: m, cfg: cfg, prefix: prefixes[cfg.Name], state: StateStarting,
			log: m.log.With(zap.String("mcp_server", cfg.Name))}
		s.dialing = make(chan struct{})
		m.servers[cfg.Name] = s
		started = append(started, s)
	}
	m.mu.Unlock()

	for _, s := range started {
		m.goBackground(func() {
			sctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
			defer cancel()
			stop := context.AfterFunc(m.ctx, cancel) // Close abandons the start
			defer stop()
			_ = s.connectAndLoad(sctx)
			s.mu.Lock()
			ch := s.dialing
			s.dialing = nil
			s.mu.Unlock()
			close(ch)
			m.changed()
		})
	}
	m.changed()
}

// Status returns every server's state, sorted by name.
func (m *Manager) Status() []ServerStatus {
	out := make([]ServerStatus, 0)
	for _, s := range m.sorted() {
		s.mu.Lock()
		st := ServerStatus{Name: s.cfg.Name, State: s.state, ProtocolVersion: s.protocol, Tools: len(s.adapters), Error: s.lastErr}
		s.mu.Unlock()
		out = append(out, st)
	}
	return out
}

// Prompts returns the prompts of the servers that are mounted, by server
// then name.
func (m *Manager) Prompts() []PromptInfo {
	var out []PromptInfo
	for _, s := range m.sorted() {
		s.mu.Lock()
		out = append(out, s.prompts...)
		s.mu.Unlock()
	}
	return out
}

// WaitReady blocks until no server is starting (each is ready or down) or
// ctx ends.
func (m *Manager) WaitReady(ctx context.Context) error {
	for {
		m.mu.Lock()
		ch, closed := m.stateCh, m.closed
		m.mu.Unlock()
		if closed {
			return nil
		}
		starting := false
		for _, s := range m.sorted() {
			s.mu.Lock()
			if s.state == StateStarting || s.dialing != nil {
				starting = true
			}
			s.mu.Unlock()
		}
		if !starting {
			return nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// OnChange registers f to be called (never concurrently with itself; it
// should return quickly, as a tool call may be waiting) whenever the MCP tools in the registry or a
// server's state change: a server ready or down, a list_changed refresh, a
// restart.
func (m *Manager) OnChange(f func()) {
	m.mu.Lock()
	m.onChange = append(m.onChange, f)
	m.mu.Unlock()
}

// Close stops every server (stdin closed, a short grace, then the whole
// process group killed), unregisters their tools and waits, at most a few
// seconds, for the background work to end.
func (m *Manager) Close() error {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil
	}
	m.closed = true
	servers := make([]*server, 0, len(m.servers))
	for _, s := range m.servers {
		servers = append(servers, s)
	}
	m.mu.Unlock()
	m.cancel()

	var wg sync.WaitGroup
	for _, s := range servers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.shutdown()
		}()
	}
	wg.Wait()

	done := make(chan struct{})
	go func() {
		m.wg.Wait()
		close(done)
	}()
	// Every server is stopped: the spawner's thread may end, taking any
	// straggler it forked with it (Pdeathsig).
	defer m.spawn.stop()
	select {
	case <-done:
		return nil
	case <-time.After(m.closeTimeout):
		return errors.New("mcp: background work did not end within " + m.closeTimeout.String())
	}
}

func (m *Manager) sorted() []*server {
	m.mu.Lock()
	out := make([]*server, 0, len(m.servers))
	for _, s := range m.servers {
		out = append(out, s)
	}
	m.mu.Unlock()
	sort.Slice(out, func(i, j int) bool { return out[i].cfg.Name < out[j].cfg.Name })
	return out
}

// changed wakes WaitReady and calls the OnChange listeners.
func (m *Manager) changed() {
	m.mu.Lock()
	close(m.stateCh)
	m.stateCh = make(chan struct{})
	listeners := append([]func(){}, m.onChange...)
	m.mu.Unlock()
	m.notifyMu.Lock()
	defer m.notifyMu.Unlock()
	for _, f := range listeners {
		f()
	}
}

// goBackground runs f as a job Close waits for and reports whether it
// did: once Close has begun, no new job starts.
func (m *Manager) goBackground(f func()) bool {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return false
	}
	m.wg.Add(1)
	m.mu.Unlock()
	go func() {
		defer m.wg.Done()
		f()
	}()
	return true
}

// backoff is the wait before restart attempt n (1 s, 2 s, 4 s … 1 min).
func (m *Manager) backoff(failures int) time.Duration {
	d := m.backoffBase
	for i := 1; i < failures && d < m.backoffMax; i++ {
		d *= 2
	}
	return min(d, m.backoffMax)
}

// server returns the named server, for tests.
func (m *Manager) server(name string) (*server, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s, ok := m.servers[name]
	if !ok {
		return nil, fmt.Errorf("no MCP server %q", name)
	}
	return s, nil
}

package mcp

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/zap/zaptest"

	"github.com/agent-lsp/agent-lsp/tools"
)

// newTestManager returns a manager with short timeouts, closed (and its
// processes checked gone) when the test ends.
func newTestManager(t *testing.T, roots ...string) (*Manager, *tools.Registry) {
	t.Helper()
	reg := tools.NewRegistry()
	m := NewManager(reg, roots, zaptest.NewLogger(t))
	m.connectTimeout = 10 * time.Second
	m.probeTimeout = 2 * time.Second
	m.backoffBase = 100 * time.Millisecond
	m.backoffMax = time.Second
	t.Cleanup(func() {
		if err := m.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return m, reg
}

// startAndWait starts the servers and waits until none is starting.
func startAndWait(t *testing.T, m *Manager, cfgs ...ServerConfig) {
	t.Helper()
	m.Start(t.Context(), cfgs)
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	if err := m.WaitReady(ctx); err != nil {
		t.Fatalf("WaitReady: %v; status %+v", err, m.Status())
	}
}

func statusOf(t *testing.T, m *Manager, name string) ServerStatus {
	t.Helper()
	for _, s := range m.Status() {
		if s.Name == name {
			return s
		}
	}
	t.Fatalf("no status for %q in %+v", name, m.Status())
	return ServerStatus{}
}

// call runs one tool call through the registry, permission-free, the way
// the agent loop does (truncation included).
func call(t *testing.T, reg *tools.Registry, name, args string) tools.Outcome {
	t.Helper()
	out := reg.Execute(t.Context(), &tools.Env{}, []tools.Call{{ID: "c1", Name: name, Args: json.RawMessage(args)}}, tools.ExecOptions{})
	return out[0]
}

func pidOf(t *testing.T, m *Manager, name string) int {
	t.Helper()
	s, err := m.server(name)
	if err != nil {
		t.Fatal(err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.c == nil {
		t.Fatalf("server %s has no connection", name)
	}
	return s.c.pid()
}

// wireLog records the methods a client sends, per server: the proof that
// a session went through server/discover and never initialize.
type wireLog struct {
	mu      sync.Mutex
	methods map[string][]string
}

func (w *wireLog) wrap(server string, t sdk.Transport) sdk.Transport {
	return &loggingTransport{Transport: t, log: w, server: server}
}

func (w *wireLog) sent(server string) []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.methods[server]...)
}

type loggingTransport struct {
	sdk.Transport
	log    *wireLog
	server string
}

func (t *loggingTransport) Connect(ctx context.Context) (sdk.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &loggingConn{Connection: c, t: t}, nil
}

type loggingConn struct {
	sdk.Connection
	t *loggingTransport
}

func (c *loggingConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if req, ok := msg.(*jsonrpc.Request); ok {
		c.t.log.mu.Lock()
		if c.t.log.methods == nil {
			c.t.log.methods = map[string][]string{}
		}
		c.t.log.methods[c.t.server] = append(c.t.log.methods[c.t.server], req.Method)
		c.t.log.mu.Unlock()
	}
	return c.Connection.Write(ctx, msg)
}

// recordPIDs is a transport wrapper that notes the pid of every process a
// stdio transport starts (also those whose connect then fails).
func recordPIDs(pids *[]int) func(string, sdk.Transport) sdk.Transport {
	var mu sync.Mutex
	return func(_ string, t sdk.Transport) sdk.Transport {
		return &pidTransport{Transport: t, record: func(pid int) {
			mu.Lock()
			*pids = append(*pids, pid)
			mu.Unlock()
		}}
	}
}

type pidTransport struct {
	sdk.Transport
	record func(int)
}

func (p *pidTransport) Connect(ctx context.Context) (sdk.Connection, error) {
	c, err := p.Transport.Connect(ctx)
	if ct, ok := p.Transport.(*sdk.CommandTransport); ok && ct.Command.Process != nil {
		p.record(ct.Command.Process.Pid)
	}
	return c, err
}

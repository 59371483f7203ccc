package mcp

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest"
	"go.uber.org/zap/zaptest/observer"

	"github.com/agent-lsp/agent-lsp/internal/await"
	"github.com/agent-lsp/agent-lsp/tools"
)

// useFakeClock gives m a fake clock and the production backoff (1 s … 1 min),
// which the fake clock makes free.
func useFakeClock(m *Manager) *await.Clock {
	c := await.NewClock()
	m.clock = c
	m.backoffBase, m.backoffMax = time.Second, time.Minute
	return c
}

// waitUntil waits, watching every state change, until cond holds.
func waitUntil(t *testing.T, m *Manager, what string, cond func() bool) {
	t.Helper()
	await.Until(t, what, func() <-chan struct{} {
		m.mu.Lock()
		defer m.mu.Unlock()
		return m.stateCh
	}, cond)
}

// stateLog is the server's state at every change, consecutive repeats
// dropped, as the manager's OnChange listeners see it.
type stateLog struct {
	mu   sync.Mutex
	seen []State
	ch   chan struct{} // closed (and replaced) at every new state
}

// recordStates notes the state of the server name at every change.
func recordStates(m *Manager, name string) *stateLog {
	l := &stateLog{ch: make(chan struct{})}
	m.OnChange(func() {
		for _, st := range m.Status() {
			if st.Name != name {
				continue
			}
			l.mu.Lock()
			if len(l.seen) == 0 || l.seen[len(l.seen)-1] != st.State {
				l.seen = append(l.seen, st.State)
				close(l.ch)
				l.ch = make(chan struct{})
			}
			l.mu.Unlock()
		}
	})
	return l
}

func (l *stateLog) states() []State {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.seen)
}

// waitFor waits until the listeners have seen want in order. The manager
// wakes its own waiters (waitUntil) before it calls its listeners, so a
// state the status shows may not have reached them yet.
func (l *stateLog) waitFor(t *testing.T, want []State) {
	t.Helper()
	await.Until(t, fmt.Sprintf("OnChange to see %v in order", want), func() <-chan struct{} {
		l.mu.Lock()
		defer l.mu.Unlock()
		return l.ch
	}, func() bool { return hasSubsequence(l.states(), want) })
}

func hasSubsequence(got, want []State) bool {
	i := 0
	for _, s := range got {
		if i < len(want) && s == want[i] {
			i++
		}
	}
	return i == len(want)
}

// A server that fails its first start has no tool mounted, so no call can
// ever restart it: the manager does, in the background, after the backoff.
func TestServerFailingItsFirstStartComesUpWithoutACall(t *testing.T) {
	t.Parallel()
	m, reg := newTestManager(t)
	clk := useFakeClock(m)
	states := recordStates(m, "flaky")
	m.Start(t.Context(), []ServerConfig{flakyServer(t, "flaky", "broken")})

	if d := clk.NextWait(t); d != time.Second {
		t.Errorf("first backoff = %s, want 1s", d)
	}
	st := statusOf(t, m, "flaky")
	if st.State != StateDown || st.Tools != 0 || !strings.Contains(st.Error, "first start fails") {
		t.Errorf("after the failed start: %+v, want down with the stderr line and no tools", st)
	}
	s, _ := m.server("flaky")
	start := time.Now()
	if _, err := s.session(t.Context()); err == nil || !strings.Contains(err.Error(), "next restart attempt in 1s") {
		t.Errorf("a call during the backoff = %v", err)
	}
	if el := time.Since(start); el > time.Second {
		t.Errorf("a call during the backoff took %s, want an immediate answer", el)
	}

	clk.Advance(time.Second)
	waitUntil(t, m, "ready with tools", func() bool {
		st := statusOf(t, m, "flaky")
		return st.State == StateReady && st.Tools > 0
	})
	if _, ok := reg.Lookup("mcp__flaky__ok"); !ok {
		t.Fatal("mcp__flaky__ok not mounted after the background restart")
	}
	states.waitFor(t, []State{StateDown, StateStarting, StateReady})
	if st := statusOf(t, m, "flaky"); st.Error != "" || st.ProtocolVersion == "" {
		t.Errorf("ready status = %+v", st)
	}
	first := pidOf(t, m, "flaky")
	if o := call(t, reg, "mcp__flaky__ok", `{}`); o.Status != tools.StatusCompleted {
		t.Fatalf("call after the background restart = %s %q", o.Status, o.Output)
	}

	// The successful start reset the backoff: a crash waits 1 s, not 2 s,
	// and the server comes back, again without a call.
	if o := call(t, reg, "mcp__flaky__crash", `{}`); o.Status != tools.StatusFailed {
		t.Fatalf("crash call = %s %q", o.Status, o.Output)
	}
	if d := clk.NextWait(t); d != time.Second {
		t.Errorf("backoff after a crash following a successful start = %s, want 1s", d)
	}
	if st := statusOf(t, m, "flaky"); st.State != StateDown || st.Tools == 0 {
		t.Errorf("after the crash: %+v, want down with its tools still mounted", st)
	}
	clk.Advance(time.Second)
	waitUntil(t, m, "ready again", func() bool { return statusOf(t, m, "flaky").State == StateReady })
	if second := pidOf(t, m, "flaky"); second == first {
		t.Errorf("pid %d unchanged after the restart", second)
	}
	await.Exited(t, 5*time.Second, first)
}

// A server that never starts is retried at 1 s, 2 s, 4 s … capped at 1 min,
// every failed process gone.
func TestBackgroundRestartBacksOffUpToAMinute(t *testing.T) {
	t.Parallel()
	m, _ := newTestManager(t)
	clk := useFakeClock(m)
	var pids []int
	m.wrapTransport = recordPIDs(&pids)
	m.Start(t.Context(), []ServerConfig{testServer("dead", "dies")})

	want := []time.Duration{1, 2, 4, 8, 16, 32, 60, 60}
	for i, w := range want {
		d := clk.NextWait(t)
		if d != w*time.Second {
			t.Errorf("wait %d = %s, want %s", i+1, d, w*time.Second)
		}
		if st := statusOf(t, m, "dead"); st.State != StateDown || !strings.Contains(st.Error, "exit status 4") {
			t.Errorf("during wait %d: %+v", i+1, st)
		}
		if i < len(want)-1 {
			clk.Advance(d)
		}
	}
	// Nothing runs until the last wait is over: one process per attempt.
	if len(pids) != len(want) {
		t.Errorf("%d processes started, want %d", len(pids), len(want))
	}
	for _, pid := range pids {
		await.Exited(t, 5*time.Second, pid)
	}
}

// A configuration error is never retried, in the background or not; a
// server that merely fails is, which shows the count can tell them apart.
func TestOnlyFailuresThatMayPassAreRetried(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		cfg      ServerConfig
		retried  bool
		errorHas string
	}{
		{"missing command", ServerConfig{Name: "ghost", Type: TypeStdio, Command: "/nonexistent/mcp-server-ghost"}, false, "no such file"},
		{"missing working directory", ServerConfig{Name: "nowhere", Type: TypeStdio, Command: "true", Cwd: "/nonexistent/dir"}, false, "working directory"},
		{"server exiting at start", testServer("dead", "dies"), true, "exit status 4"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			core, logs := observer.New(zapcore.InfoLevel)
			reg := tools.NewRegistry()
			m := NewManager(reg, nil, zap.New(zapcore.NewTee(zaptest.NewLogger(t).Core(), core)))
			clk := useFakeClock(m)
			t.Cleanup(func() {
				if err := m.Close(); err != nil {
					t.Errorf("Close: %v", err)
				}
			})
			attempts := func() int {
				return logs.FilterMessageSnippet("MCP server failed to start").Len()
			}
			m.Start(t.Context(), []ServerConfig{tc.cfg})
			if tc.retried {
				for range 2 {
					clk.Advance(clk.NextWait(t))
				}
				waitUntil(t, m, "retried twice", func() bool { return attempts() >= 3 })
			} else {
				// Once the start's job is over, nothing runs and no backoff
				// is waited out (the clock stands still, so a retry would
				// have to wait on it): no retry can ever come.
				idle := make(chan struct{})
				go func() { m.wg.Wait(); close(idle) }()
				await.Event(t, idle, "the start's background job to end")
				select {
				case d := <-clk.Waits():
					t.Errorf("a retry was scheduled after %s", d)
				default:
				}
				if n := attempts(); n != 1 {
					t.Errorf("%d start attempts, want exactly 1", n)
				}
			}
			if st := statusOf(t, m, tc.cfg.Name); st.State != StateDown || !strings.Contains(st.Error, tc.errorHas) {
				t.Errorf("status = %+v, want down with %q", st, tc.errorHas)
			}
		})
	}
}

// Close ends the background restarts at once, whether they are waiting
// out a one-minute backoff or connecting to a server that never answers,
// and leaves no process behind.
func TestCloseStopsBackgroundRestarts(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		cfg   func(t *testing.T) ServerConfig
		ready func(t *testing.T, m *Manager, clk *await.Clock) // brings the manager to the moment of Close
	}{
		{"waiting out the backoff", func(*testing.T) ServerConfig { return testServer("srv", "dies") },
			func(t *testing.T, m *Manager, clk *await.Clock) {
				for range 7 { // up to the one-minute cap
					clk.Advance(clk.NextWait(t))
				}
				if d := clk.NextWait(t); d != time.Minute {
					t.Errorf("wait = %s, want 1m", d)
				}
			}},
		{"connecting to a server that hangs", func(t *testing.T) ServerConfig { return flakyServer(t, "srv", "silent") },
			func(t *testing.T, m *Manager, clk *await.Clock) {
				clk.Advance(clk.NextWait(t))
				waitUntil(t, m, "restarting", func() bool { return statusOf(t, m, "srv").State == StateStarting })
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			m := NewManager(tools.NewRegistry(), nil, zaptest.NewLogger(t))
			clk := useFakeClock(m)
			var pids []int
			m.wrapTransport = recordPIDs(&pids)
			m.Start(t.Context(), []ServerConfig{tc.cfg(t)})
			tc.ready(t, m, clk)

			start := time.Now()
			if err := m.Close(); err != nil {
				t.Fatal(err)
			}
			if el := time.Since(start); el > 3*time.Second {
				t.Errorf("Close took %s", el)
			}
			if len(pids) == 0 {
				t.Fatal("no process was started")
			}
			for _, pid := range pids { // Close waited for the jobs that recorded them
				await.Exited(t, 5*time.Second, pid)
			}
			if st := statusOf(t, m, "srv"); st.State != StateDown {
				t.Errorf("status after Close = %+v", st)
			}
		})
	}
}

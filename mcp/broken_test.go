package mcp

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agent-lsp/agent-lsp/internal/await"
	"github.com/agent-lsp/agent-lsp/tools"
)

func TestCommandNotFoundIsAConfigurationError(t *testing.T) {
	t.Parallel()
	m, reg := newTestManager(t)
	startAndWait(t, m,
		ServerConfig{Name: "ghost", Type: TypeStdio, Command: "/nonexistent/mcp-server-ghost"},
		testServer("demo", "demo"), // one bad server never stops the others
	)
	st := statusOf(t, m, "ghost")
	if st.State != StateDown || !strings.Contains(st.Error, "/nonexistent/mcp-server-ghost") || !strings.Contains(st.Error, "no such file") {
		t.Errorf("ghost status = %+v", st)
	}
	if d := statusOf(t, m, "demo"); d.State != StateReady {
		t.Errorf("demo status = %+v", d)
	}
	s, _ := m.server("ghost")
	if _, err := s.session(t.Context()); err == nil || !strings.Contains(err.Error(), "not retried") {
		t.Errorf("session of a missing command = %v, want a not-retried configuration error", err)
	}
	for _, tl := range reg.Tools() {
		if strings.HasPrefix(tl.Name(), "mcp__ghost__") {
			t.Errorf("tool %s mounted from a server that never started", tl.Name())
		}
	}
}

// A server that prints a debug line on stdout first breaks the protocol:
// it is down with the parse error and its stderr, and no process is left.
func TestNonJSONLineOnStdoutMarksServerDown(t *testing.T) {
	t.Parallel()
	m, _ := newTestManager(t)
	var pids []int
	m.wrapTransport = recordPIDs(&pids)
	startAndWait(t, m, testServer("chatty", "nonjson"))
	st := statusOf(t, m, "chatty")
	if st.State != StateDown || !strings.Contains(st.Error, "invalid character") {
		t.Errorf("status = %+v, want down with a JSON syntax error", st)
	}
	t.Logf("error shown: %s", st.Error)
	for _, pid := range pids {
		await.Exited(t, 5*time.Second, pid)
	}
}

func TestServerExitingMidCallIsRestarted(t *testing.T) {
	t.Parallel()
	m, reg := newTestManager(t)
	clk := useFakeClock(m) // the backoff passes only when the test says so
	startAndWait(t, m, testServer("brk", "broken"))
	first := pidOf(t, m, "brk")

	o := call(t, reg, "mcp__brk__crash", `{}`)
	if o.Status != tools.StatusFailed {
		t.Fatalf("crash call = %s %q", o.Status, o.Output)
	}
	for _, want := range []string{"exit status 3", "simulated crash", "restarted automatically"} {
		if !strings.Contains(o.Output, want) {
			t.Errorf("crash result %q lacks %q", o.Output, want)
		}
	}
	if st := statusOf(t, m, "brk"); st.State != StateDown || st.Tools == 0 {
		t.Errorf("after crash: %+v, want down with its tools still mounted", st)
	}
	await.Exited(t, 5*time.Second, first)

	// Within the backoff the call fails at once with the reason.
	o = call(t, reg, "mcp__brk__ok", `{}`)
	if o.Status != tools.StatusFailed || !strings.Contains(o.Output, "next restart attempt in") {
		t.Errorf("call during backoff = %s %q", o.Status, o.Output)
	}
	clk.Advance(clk.NextWait(t)) // the background restart's backoff
	o = call(t, reg, "mcp__brk__ok", `{}`)
	if o.Status != tools.StatusCompleted || !strings.HasPrefix(o.Output, "ok from pid ") {
		t.Fatalf("call after backoff = %s %q", o.Status, o.Output)
	}
	if second := pidOf(t, m, "brk"); second == first || !strings.Contains(o.Output, strconv.Itoa(second)) {
		t.Errorf("restarted pid %d (first %d), output %q", second, first, o.Output)
	}
	if st := statusOf(t, m, "brk"); st.State != StateReady || st.Error != "" {
		t.Errorf("after restart: %+v", st)
	}
}

func TestHangingCallTimesOutAndServerKeepsServing(t *testing.T) {
	t.Parallel()
	m, reg := newTestManager(t)
	cfg := testServer("brk", "broken")
	cfg.Timeout = time.Second
	startAndWait(t, m, cfg)
	pid := pidOf(t, m, "brk")

	start := time.Now()
	o := call(t, reg, "mcp__brk__hang", `{}`)
	if o.Status != tools.StatusFailed || !strings.Contains(o.Output, "timed out after 1s") {
		t.Fatalf("hang call = %s %q", o.Status, o.Output)
	}
	if el := time.Since(start); el > 6*time.Second {
		t.Errorf("timeout took %s", el)
	}
	o = call(t, reg, "mcp__brk__ok", `{}`)
	if o.Status != tools.StatusCompleted {
		t.Errorf("call after a timeout = %s %q", o.Status, o.Output)
	}
	if after := pidOf(t, m, "brk"); after != pid {
		t.Errorf("server restarted after a mere timeout: pid %d → %d", pid, after)
	}
}

// A server that never answers anything at all: the connect is bounded, the
// initialize retry too, and it ends down with both processes gone.
func TestSilentServerIsDownAfterBoundedConnect(t *testing.T) {
	t.Parallel()
	m, _ := newTestManager(t)
	m.discoverTimeout = 400 * time.Millisecond
	m.connectTimeout = 600 * time.Millisecond
	var pids []int
	m.wrapTransport = recordPIDs(&pids)
	start := time.Now()
	startAndWait(t, m, testServer("mute", "silent"))
	if el := time.Since(start); el > 8*time.Second {
		t.Errorf("giving up took %s", el)
	}
	st := statusOf(t, m, "mute")
	if st.State != StateDown || !strings.Contains(st.Error, "no answer within") {
		t.Errorf("status = %+v", st)
	}
	if len(pids) != 2 {
		t.Errorf("%d processes started, want 2 (discover, then initialize)", len(pids))
	}
	for _, pid := range pids {
		await.Exited(t, 5*time.Second, pid)
	}
}

func TestHugeResultIsBounded(t *testing.T) {
	t.Parallel()
	m, reg := newTestManager(t)
	startAndWait(t, m, testServer("brk", "broken"))
	s, _ := m.server("brk")
	res, err := s.callTool(t.Context(), "big", []byte(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Output) > maxResultText || !strings.HasPrefix(res.Output, "BEGIN") || !strings.HasSuffix(res.Output, "END") {
		t.Errorf("adapter output: %d bytes, starts %q, ends %q", len(res.Output), res.Output[:10], res.Output[len(res.Output)-10:])
	}
	o := call(t, reg, "mcp__brk__big", `{}`)
	if o.Status != tools.StatusCompleted || len(o.Output) > 33<<10 || !strings.Contains(o.Output, "cut from the middle") {
		t.Errorf("registry output: %s, %d bytes", o.Status, len(o.Output))
	}
	if st := statusOf(t, m, "brk"); st.State != StateReady {
		t.Errorf("after a 5 MB result: %+v", st)
	}
}

func TestToolErrorsAndRefusals(t *testing.T) {
	t.Parallel()
	m, reg := newTestManager(t)
	startAndWait(t, m, testServer("brk", "broken"))
	o := call(t, reg, "mcp__brk__fail", `{}`)
	if o.Status != tools.StatusFailed || o.Output != "disk quota exceeded" {
		t.Errorf("isError result = %s %q", o.Status, o.Output)
	}
	s, _ := m.server("brk")
	_, err := s.callTool(t.Context(), "no_such_tool", []byte(`{}`))
	if err == nil || !strings.Contains(err.Error(), "refused") {
		t.Errorf("unknown tool = %v, want a refusal", err)
	}
	if st := statusOf(t, m, "brk"); st.State != StateReady {
		t.Errorf("after a refusal: %+v", st)
	}
}

func TestListChangedMountsNewTool(t *testing.T) {
	t.Parallel()
	m, reg := newTestManager(t)
	startAndWait(t, m, testServer("brk", "broken"))
	changed := make(chan struct{}, 16)
	m.OnChange(func() { changed <- struct{}{} })
	if _, ok := reg.Lookup("mcp__brk__late_tool"); ok {
		t.Fatal("late_tool mounted before it exists")
	}
	if o := call(t, reg, "mcp__brk__add_tool", `{}`); o.Status != tools.StatusCompleted {
		t.Fatalf("add_tool = %s %q", o.Status, o.Output)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	for {
		if _, ok := reg.Lookup("mcp__brk__late_tool"); ok {
			break
		}
		select {
		case <-changed:
		case <-ctx.Done():
			t.Fatalf("late_tool never mounted; status %+v", m.Status())
		}
	}
	if o := call(t, reg, "mcp__brk__late_tool", `{}`); o.Status != tools.StatusCompleted || o.Output != "late tool works" {
		t.Errorf("late_tool = %s %q", o.Status, o.Output)
	}
}

func TestCloseKillsTheWholeProcessGroup(t *testing.T) {
	t.Parallel()
	testCloseKillsGrandchild(t, "spawner")
}

// Attack: a server's grandchild started with setsid has left the server's
// process group, so the group kill misses it; the tree's PID namespace
// (containTree) does not.
func TestCloseKillsSetsidGrandchild(t *testing.T) {
	t.Parallel()
	testCloseKillsGrandchild(t, "setsid-spawner")
}

func testCloseKillsGrandchild(t *testing.T, mode string) {
	reg := tools.NewRegistry()
	m := NewManager(reg, nil, nil)
	pidFile := filepath.Join(t.TempDir(), "grandchild.pid")
	cfg := testServer("spawn", mode)
	cfg.Env[grandchildPIDFileEnv] = pidFile
	startAndWait(t, m, cfg)
	server := pidOf(t, m, "spawn")
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	grandchild, _ := strconv.Atoi(string(data))
	if grandchild <= 0 || await.Gone(grandchild) {
		t.Fatalf("grandchild %d not running before Close", grandchild)
	}
	start := time.Now()
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	if el := time.Since(start); el > 3*time.Second {
		t.Errorf("Close took %s", el)
	}
	await.Exited(t, 5*time.Second, server)
	await.Exited(t, 5*time.Second, grandchild)
	if len(reg.Tools()) != 0 {
		t.Errorf("tools left after Close: %d", len(reg.Tools()))
	}
	if st := m.Status(); len(st) != 1 || st[0].State != StateDown {
		t.Errorf("status after Close = %+v", st)
	}
}

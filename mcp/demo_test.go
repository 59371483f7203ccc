package mcp

import (
	"slices"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agent-lsp/agent-lsp/internal/await"
	"github.com/agent-lsp/agent-lsp/tools"
)

// The demo server speaks the stateless 2026-07-28 revision: the client
// must discover it with server/discover and never send initialize.
func TestDemoServerIsDiscoveredStatelessly(t *testing.T) {
	t.Parallel()
	m, reg := newTestManager(t)
	wire := &wireLog{}
	m.wrapTransport = wire.wrap
	startAndWait(t, m, testServer("demo", "demo"))

	st := statusOf(t, m, "demo")
	if st.State != StateReady || st.ProtocolVersion != "2026-07-28" || st.Tools != 2 {
		t.Fatalf("status = %+v, want ready at 2026-07-28 with 2 tools", st)
	}
	t.Logf("demo server negotiated protocol %s", st.ProtocolVersion)
	sent := wire.sent("demo")
	if len(sent) == 0 || sent[0] != "server/discover" {
		t.Errorf("first request = %v, want server/discover", sent)
	}
	if slices.Contains(sent, "initialize") {
		t.Errorf("initialize was sent to a 2026-07-28 server: %v", sent)
	}

	var names []string
	for _, tl := range reg.Tools() {
		names = append(names, tl.Name())
	}
	if !slices.Equal(names, []string{"mcp__demo__current_time", "mcp__demo__word_count"}) {
		t.Fatalf("registered tools = %v", names)
	}
	wc, _ := reg.Lookup("mcp__demo__word_count")
	if src, ok := ServerOf(wc); !ok || src != "demo" {
		t.Errorf("ServerOf = %q, %v", src, ok)
	}
	if !strings.HasPrefix(wc.Description(), "[MCP server demo] ") {
		t.Errorf("description = %q", wc.Description())
	}

	tests := []struct {
		tool, args string
		status     tools.Status
		want       string
	}{
		{"mcp__demo__word_count", `{"text":"hello brave\nnew world"}`, tools.StatusCompleted, "characters: 21, lines: 2, words: 4"},
		{"mcp__demo__word_count", `{"text":""}`, tools.StatusFailed, "text must not be empty"},
		{"mcp__demo__current_time", `{}`, tools.StatusCompleted, "T"},
	}
	for _, tc := range tests {
		o := call(t, reg, tc.tool, tc.args)
		if o.Status != tc.status || !strings.Contains(o.Output, tc.want) {
			t.Errorf("%s %s = %s %q, want %s containing %q", tc.tool, tc.args, o.Status, o.Output, tc.status, tc.want)
		}
	}
	if got := wire.sent("demo"); slices.Contains(got, "initialize") {
		t.Errorf("initialize sent later: %v", got)
	}
}

// A legacy server that ignores server/discover (no answer at all) hangs
// the probe: the bounded connect gives up and a fresh process is asked
// for 2025-11-25 with the initialize handshake.
func TestLegacyServerIgnoringDiscoverFallsBackToInitialize(t *testing.T) {
	t.Parallel()
	m, reg := newTestManager(t)
	m.discoverTimeout = 700 * time.Millisecond
	wire := &wireLog{}
	var pids []int
	record := recordPIDs(&pids)
	m.wrapTransport = func(name string, tr sdk.Transport) sdk.Transport { return wire.wrap(name, record(name, tr)) }
	startAndWait(t, m, testServer("old", "legacy"))
	if len(pids) != 2 {
		t.Fatalf("%d processes started, want 2", len(pids))
	}
	await.Exited(t, 5*time.Second, pids[0]) // the process that ignored server/discover

	st := statusOf(t, m, "old")
	if st.State != StateReady || st.ProtocolVersion != legacyProtocolVersion {
		t.Fatalf("status = %+v, want ready at %s", st, legacyProtocolVersion)
	}
	t.Logf("legacy server negotiated protocol %s after: %v", st.ProtocolVersion, wire.sent("old"))
	sent := wire.sent("old")
	if !slices.Contains(sent, "server/discover") || !slices.Contains(sent, "initialize") {
		t.Errorf("sent = %v, want a discover attempt then initialize", sent)
	}
	o := call(t, reg, "mcp__old__word_count", `{"text":"a b c"}`)
	if o.Status != tools.StatusCompleted || !strings.Contains(o.Output, "words: 3") {
		t.Errorf("call = %s %q", o.Status, o.Output)
	}
}

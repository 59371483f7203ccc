package mcp

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agent-lsp/agent-lsp/mcp/demo"
	"github.com/agent-lsp/agent-lsp/tools"
)

// A Streamable HTTP server configured in .mcp.json with a token header
// taken from the environment: every request carries the header.
// The stateful handler serves the handshake revisions only; the stateless
// one serves 2026-07-28.
func TestStreamableHTTPServerWithHeaderFromConfig(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		stateless bool
		want      string
	}{{false, "2025-11-25"}, {true, "2026-07-28"}} {
		t.Run(fmt.Sprintf("stateless=%v", tc.stateless), func(t *testing.T) {
			testHTTPServer(t, &sdk.StreamableHTTPOptions{Stateless: tc.stateless}, tc.want)
		})
	}
}

func testHTTPServer(t *testing.T, opts *sdk.StreamableHTTPOptions, wantProtocol string) {
	var unauthorized atomic.Int32
	handler := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return demo.NewServer(nil) }, opts)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer s3cret" {
			unauthorized.Add(1)
			http.Error(w, "missing token", http.StatusUnauthorized)
			return
		}
		handler.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)

	root := t.TempDir()
	cfgText := `{"mcpServers":{"remote":{"type":"http","url":"` + srv.URL + `","headers":{"Authorization":"Bearer ${DEMO_TOKEN}"}}}}`
	if err := os.WriteFile(filepath.Join(root, ".mcp.json"), []byte(cfgText), 0o644); err != nil {
		t.Fatal(err)
	}
	loaded := LoadConfig(root, nil, nil, nil)
	if len(loaded.Errors) != 0 || len(loaded.Workspace) != 1 || len(loaded.Servers) != 0 {
		t.Fatalf("config = %+v", loaded)
	}
	// Trusted: expanded now.
	cfg, err := loaded.Workspace[0].Config(func(k string) string {
		if k == "DEMO_TOKEN" {
			return "s3cret"
		}
		return ""
	})
	if err != nil {
		t.Fatal(err)
	}
	cfgs := []ServerConfig{cfg}
	m, reg := newTestManager(t, root)
	startAndWait(t, m, cfgs...)
	st := statusOf(t, m, "remote")
	if st.State != StateReady || st.Tools != 2 || st.ProtocolVersion != wantProtocol {
		t.Fatalf("status = %+v", st)
	}
	t.Logf("HTTP demo server negotiated protocol %s", st.ProtocolVersion)
	o := call(t, reg, "mcp__remote__word_count", `{"text":"over http"}`)
	if o.Status != tools.StatusCompleted || !strings.Contains(o.Output, "words: 2") {
		t.Errorf("call = %s %q", o.Status, o.Output)
	}
	if n := unauthorized.Load(); n != 0 {
		t.Errorf("%d requests without the token", n)
	}
}

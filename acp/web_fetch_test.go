package acp_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agent-lsp/agent-lsp/provider/anthropic"
	"github.com/agent-lsp/agent-lsp/provider/openai"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
	"github.com/agent-lsp/agent-lsp/tools"
)

// web_fetch through ACP, in both dialects: a loopback page is refused by
// default and fetched as markdown when the user allows private addresses
// (--web-fetch-private-network); the client is asked before each fetch.
func TestWebFetchThroughACP(t *testing.T) {
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<html><body><h2>Install</h2><p>Run <code>make install</code>.</p><script>track()</script></body></html>`)
	}))
	defer page.Close()
	args, _ := json.Marshal(map[string]string{"url": page.URL + "/docs"})
	for _, dialect := range []string{openai.Name, anthropic.Name} {
		for _, allow := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/allow=%v", dialect, allow), func(t *testing.T) {
				h := startAgent(t, harnessOptions{dialect: dialect, webFetch: tools.WebFetchOptions{AllowPrivateNetwork: allow},
					script: providertest.Script{
						{ToolCalls: []providertest.Call{{ID: "call_web", Name: "web_fetch", Arguments: string(args)}}},
						{Text: "Read it."},
					}})
				h.initialize(true)
				ns, err := h.conn.NewSession(h.ctx(), sdk.NewSessionRequest{Cwd: t.TempDir(), McpServers: []sdk.McpServer{}})
				if err != nil {
					t.Fatal(err)
				}
				if r := h.prompt(ns.SessionId, "How do I install it?"); r.StopReason != sdk.StopReasonEndTurn {
					t.Fatalf("stop %q", r.StopReason)
				}
				if asked := h.client.asked; len(asked) != 1 || !strings.Contains(*asked[0].ToolCall.Title, "fetch "+page.URL+"/docs") {
					t.Errorf("asked %d times; want once, naming the URL", len(asked))
				}
				reqs := h.model.Requests()
				if len(reqs) != 2 {
					t.Fatalf("%d model requests, want 2", len(reqs))
				}
				body := string(reqs[1].Body)
				want := `## Install\n\nRun ` + "`make install`" + `.`
				if !allow {
					want = "a loopback address: web_fetch does not reach the user's own machine"
				}
				if !strings.Contains(body, want) || strings.Contains(body, "track()") {
					t.Errorf("the model read, want %q:\n%s", want, body)
				}
			})
		}
	}
}

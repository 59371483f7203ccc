package lsp_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/provider/anthropic"
	"github.com/agent-lsp/agent-lsp/provider/openai"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// webPage serves one documentation page on loopback, as a docs server on
// the user's machine would.
func webPage(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<html><head><script>track()</script></head><body><h2>Install</h2><p>Run <code>make install</code>.</p></body></html>`)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// web_fetch through the daemon, in both dialects: a loopback page is
// refused by default (the model reads why), fetched as markdown when
// initializationOptions.webFetch.allowPrivateNetwork allows it.
func TestWebFetchThroughTheDaemon(t *testing.T) {
	page := webPage(t)
	args, _ := json.Marshal(map[string]string{"url": page.URL + "/docs"})
	for _, dialect := range []string{openai.Name, anthropic.Name} {
		for _, allow := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/allow=%v", dialect, allow), func(t *testing.T) {
				script := providertest.Script{
					{ToolCalls: []providertest.Call{{ID: "call_web", Name: "web_fetch", Arguments: string(args)}}},
					{Text: "Read it."},
				}
				s := start(t, script, setupOptions{dialect: dialect, caps: fullCaps, autoApprove: true})
				s.initialize(map[string]any{"webFetch": map[string]any{"allowPrivateNetwork": allow}})
				if r := s.prompt(map[string]any{"prompt": "How do I install it?"}); r.StopReason != "end_turn" {
					t.Fatalf("prompt: %+v", r)
				}
				reqs := s.model.Requests()
				if len(reqs) != 2 {
					t.Fatalf("%d model requests, want 2", len(reqs))
				}
				body := string(reqs[1].Body)
				if !strings.Contains(string(reqs[0].Body), `"web_fetch"`) {
					t.Error("web_fetch is not offered to the model")
				}
				switch {
				case allow && !strings.Contains(body, `## Install\n\nRun `+"`make install`"+`.`):
					t.Errorf("the model did not read the page as markdown:\n%s", body)
				case allow && strings.Contains(body, "track()"):
					t.Errorf("the page's script reached the model:\n%s", body)
				case !allow && !strings.Contains(body, "127.0.0.1, a loopback address: web_fetch does not reach the user's own machine"):
					t.Errorf("the model did not read why the fetch was refused:\n%s", body)
				}
			})
		}
	}
}

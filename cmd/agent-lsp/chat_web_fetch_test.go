package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// web_fetch through the chat, in both dialects: the approval names the
// URL, a loopback page is refused by default and read as markdown with
// --web-fetch-private-network.
func TestChatWebFetch(t *testing.T) {
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<html><body><h2>Install</h2><p>Run <code>make install</code>.</p><script>track()</script></body></html>`)
	}))
	defer page.Close()
	args, _ := json.Marshal(map[string]string{"url": page.URL + "/docs"})
	for _, dialect := range []string{"openai", "anthropic"} {
		for _, allow := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/allow=%v", dialect, allow), func(t *testing.T) {
				srv := providertest.NewServer(t, providertest.Script{
					{ToolCalls: []providertest.Call{{ID: "call_web", Name: "web_fetch", Arguments: string(args)}}},
					{Text: "Read it."},
				}, providertest.WithAPIKey("k-test"))
				t.Setenv(testKeyEnv, "k-test")
				flags := []string{"--provider", dialect, "--base-url", baseURL(srv, dialect), "--api-key-env", testKeyEnv,
					"--dir", t.TempDir(), "--no-save", "-p", "How do I install it?"}
				if allow {
					flags = append(flags, "--web-fetch-private-network")
				}
				code, stdout, stderr := runChatCmd(t, "y\n", flags...)
				if code != 0 {
					t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
				}
				if !strings.Contains(stderr, "fetch "+page.URL+"/docs") {
					t.Errorf("the approval does not name the URL:\n%s", stderr)
				}
				reqs := srv.Requests()
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

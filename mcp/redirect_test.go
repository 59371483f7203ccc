package mcp

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agent-lsp/agent-lsp/mcp/demo"
	"github.com/agent-lsp/agent-lsp/tools"
)

// headerRecorder is an MCP server (the SDK's, serving the demo) that
// keeps every request's credential headers.
type headerRecorder struct {
	mu       sync.Mutex
	requests int
	seen     []string // "Name: value" of each credential header received
	handler  http.Handler
	needAuth bool // answer 401 without the token, as a real server would
}

func newHeaderRecorder(needAuth bool) *headerRecorder {
	return &headerRecorder{
		handler:  sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return demo.NewServer(nil) }, nil),
		needAuth: needAuth,
	}
}

func (h *headerRecorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	h.requests++
	for _, k := range []string{"Authorization", "X-Api-Key", "Cookie", "Proxy-Authorization"} {
		if v := r.Header.Get(k); v != "" {
			h.seen = append(h.seen, k+": "+v)
		}
	}
	h.mu.Unlock()
	if h.needAuth && r.Header.Get("Authorization") != "Bearer s3cret" {
		http.Error(w, "missing token", http.StatusUnauthorized)
		return
	}
	h.handler.ServeHTTP(w, r)
}

func (h *headerRecorder) got() (int, []string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.requests, append([]string(nil), h.seen...)
}

// redirecting answers every request with a 307 to target plus the path.
func redirecting(target string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target+r.URL.Path, http.StatusTemporaryRedirect)
	})
}

func credentialEntry(name, url string) ServerConfig {
	return ServerConfig{Name: name, Type: TypeHTTP, URL: url, Headers: map[string]string{
		"Authorization": "Bearer s3cret",
		"X-Api-Key":     "k3y",
	}}
}

// Attack: an MCP server (or whoever controls its URL) answers with a 307
// to a listener on another port. No credential of the entry may arrive
// there: neither its custom header nor Authorization. The server there
// needs none, so the connection works, without them.
func TestRedirectToAnotherOriginCarriesNoCredential(t *testing.T) {
	t.Parallel()
	other := newHeaderRecorder(false)
	otherSrv := httptest.NewServer(other)
	t.Cleanup(otherSrv.Close)
	entrySrv := httptest.NewServer(redirecting(otherSrv.URL))
	t.Cleanup(entrySrv.Close)

	m, reg := newTestManager(t)
	startAndWait(t, m, credentialEntry("moved", entrySrv.URL+"/mcp"))
	if st := statusOf(t, m, "moved"); st.State != StateReady {
		t.Fatalf("status = %+v", st)
	}
	o := call(t, reg, "mcp__moved__word_count", `{"text":"no token"}`)
	if o.Status != tools.StatusCompleted || !strings.Contains(o.Output, "words: 2") {
		t.Errorf("call = %s %q", o.Status, o.Output)
	}
	n, seen := other.got()
	if n == 0 {
		t.Fatal("the other origin got no request: the redirect was not followed")
	}
	if len(seen) != 0 {
		t.Errorf("the other origin received credentials over %d requests: %q", n, seen)
	}
}

// The other origin needs the token: the connection fails, and the status
// the user sees (agent/mcpStatus) says why.
func TestRedirectToAnotherOriginIsNamedInTheError(t *testing.T) {
	t.Parallel()
	other := newHeaderRecorder(true)
	otherSrv := httptest.NewServer(other)
	t.Cleanup(otherSrv.Close)
	entrySrv := httptest.NewServer(redirecting(otherSrv.URL))
	t.Cleanup(entrySrv.Close)

	m, _ := newTestManager(t)
	startAndWait(t, m, credentialEntry("moved", entrySrv.URL+"/mcp"))
	st := statusOf(t, m, "moved")
	if st.State == StateReady {
		t.Fatalf("status = %+v: connected without the token", st)
	}
	want := "redirected to " + originOf(otherSrv.URL) + ", another origin"
	if !strings.Contains(st.Error, want) {
		t.Errorf("error = %q, want it to contain %q", st.Error, want)
	}
	if _, seen := other.got(); len(seen) != 0 {
		t.Errorf("the other origin received credentials: %q", seen)
	}
}

// A redirect within the entry's origin keeps every header.
func TestRedirectWithinTheOriginKeepsTheHeaders(t *testing.T) {
	t.Parallel()
	rec := newHeaderRecorder(true)
	mux := http.NewServeMux()
	mux.Handle("/mcp", rec)
	mux.Handle("/old/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/mcp", http.StatusTemporaryRedirect)
	}))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)

	m, reg := newTestManager(t)
	startAndWait(t, m, credentialEntry("same", srv.URL+"/old/mcp"))
	if st := statusOf(t, m, "same"); st.State != StateReady {
		t.Fatalf("status = %+v", st)
	}
	o := call(t, reg, "mcp__same__word_count", `{"text":"with token"}`)
	if o.Status != tools.StatusCompleted {
		t.Errorf("call = %s %q", o.Status, o.Output)
	}
	n, seen := rec.got()
	if !strings.Contains(strings.Join(seen, "\n"), "X-Api-Key: k3y") {
		t.Errorf("the custom header did not follow a same-origin redirect (%d requests, %q)", n, seen)
	}
}

func TestOriginOf(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		a, b string
		same bool
	}{
		{"https://h/x", "https://h:443/y", true},
		{"https://H/x", "https://h/y", true},
		{"http://h/x", "https://h/x", false},
		{"http://h:8080/", "http://h:8081/", false},
		{"http://h/", "http://h.evil/", false},
		{"http://[::1]:80/", "http://[::1]/", true},
	} {
		if got := originOf(tc.a) == originOf(tc.b); got != tc.same {
			t.Errorf("same origin %q %q = %v, want %v", tc.a, tc.b, got, tc.same)
		}
	}
}

package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/agent-lsp/agent-lsp/permission"
)

// fetchArgs is web_fetch's arguments for url.
func fetchArgs(url string) json.RawMessage {
	b, _ := json.Marshal(map[string]string{"url": url})
	return b
}

// docPage is a documentation page as servers send it: a script, a style,
// a heading, a link, a code block and a table.
const docPage = `<!doctype html><html><head><title>strings.Cut</title>
<style>body{color:red}</style><script>stealCookies()</script></head>
<body><h1>func Cut</h1><p>Cut slices <em>s</em> around the first instance of <a href="/pkg/strings/#Sep">sep</a>.</p>
<pre><code>before, after, found := strings.Cut(s, sep)</code></pre>
<table><tr><th>arg</th><th>meaning</th></tr><tr><td>s</td><td>the string</td></tr></table></body></html>`

func fetch(t *testing.T, tool Tool, env *Env, url string) (string, error) {
	t.Helper()
	res, err := tool.Run(context.Background(), fetchArgs(url), env)
	return res.Output, err
}

func TestWebFetchRefusesTheUsersOwnNetworkByDefault(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		hits.Add(1)
		fmt.Fprint(w, "secret admin page")
	}))
	defer srv.Close()
	port := strconv.Itoa(srv.Listener.Addr().(*net.TCPAddr).Port)

	tool := NewWebFetch(WebFetchOptions{})
	for _, url := range []string{
		srv.URL,                             // 127.0.0.1
		"http://localhost:" + port + "/",    // a name for it
		"http://[::ffff:127.0.0.1]:" + port, // IPv4 written as IPv6
		"http://0.0.0.0:" + port,            // "this host"
	} {
		out, err := fetch(t, tool, &Env{}, url)
		if err == nil {
			t.Errorf("%s: fetched %q; want a refusal", url, out)
			continue
		}
		if !strings.Contains(err.Error(), "allowPrivateNetwork") {
			t.Errorf("%s: %v; want the refusal to say how to allow it", url, err)
		}
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the server was reached %d times", n)
	}

	out, err := fetch(t, NewWebFetch(WebFetchOptions{AllowPrivateNetwork: true}), &Env{}, srv.URL)
	if err != nil || !strings.Contains(out, "secret admin page") {
		t.Fatalf("allowed: %q, %v", out, err)
	}
}

func TestWebFetchReturnsHTMLAsMarkdown(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, docPage)
	}))
	defer srv.Close()
	out, err := fetch(t, NewWebFetch(WebFetchOptions{AllowPrivateNetwork: true}), &Env{}, srv.URL+"/pkg/strings/")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"URL: " + srv.URL + "/pkg/strings/", "Status: 200 OK",
		"# func Cut", "Cut slices *s* around", "[sep](" + srv.URL + "/pkg/strings/#Sep)",
		"```\nbefore, after, found := strings.Cut(s, sep)\n```",
		"| s   | the string |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
	for _, gone := range []string{"stealCookies", "color:red", "<h1>"} {
		if strings.Contains(out, gone) {
			t.Errorf("%q kept in:\n%s", gone, out)
		}
	}
}

func TestWebFetchDecodesTheCharsetAndNamesBinaryContent(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/latin1":
			w.Header().Set("Content-Type", "text/plain; charset=iso-8859-1")
			w.Write([]byte("caf\xe9"))
		case "/png":
			w.Header().Set("Content-Type", "image/png")
			w.Write([]byte("\x89PNG\r\n\x1a\n\x00\x00"))
		}
	}))
	defer srv.Close()
	tool := NewWebFetch(WebFetchOptions{AllowPrivateNetwork: true})
	if out, err := fetch(t, tool, &Env{}, srv.URL+"/latin1"); err != nil || !strings.HasSuffix(out, "café") {
		t.Errorf("latin-1: %q, %v", out, err)
	}
	if out, err := fetch(t, tool, &Env{}, srv.URL+"/png"); err != nil || !strings.Contains(out, "10 bytes of image/png: not text, not shown") || strings.Contains(out, "PNG") {
		t.Errorf("png: %q, %v", out, err)
	}
}

func TestWebFetchFollowsOnlyTheApprovedHost(t *testing.T) {
	var cookies atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Cookie") != "" || r.Header.Get("Authorization") != "" {
			cookies.Add(1)
		}
		switch r.URL.Path {
		case "/moved":
			http.SetCookie(w, &http.Cookie{Name: "session", Value: "x"})
			http.Redirect(w, r, "/here", http.StatusFound)
		case "/away":
			// The same server under another name: another host to approve.
			http.Redirect(w, r, strings.Replace(srvURL(r), "127.0.0.1", "localhost", 1)+"/here", http.StatusFound)
		case "/here":
			fmt.Fprint(w, "arrived")
		}
	}))
	defer srv.Close()
	tool := NewWebFetch(WebFetchOptions{AllowPrivateNetwork: true})
	out, err := fetch(t, tool, &Env{}, srv.URL+"/moved")
	if err != nil || !strings.Contains(out, "arrived") || !strings.Contains(out, "URL: "+srv.URL+"/here") {
		t.Errorf("same host: %q, %v", out, err)
	}
	if n := cookies.Load(); n != 0 {
		t.Errorf("%d requests carried a cookie or credentials", n)
	}
	out, err = fetch(t, tool, &Env{}, srv.URL+"/away")
	if err != nil || strings.Contains(out, "arrived") || !strings.Contains(out, "redirects to another host: http://localhost:") {
		t.Errorf("other host: %q, %v", out, err)
	}
}

func srvURL(r *http.Request) string { return "http://" + r.Host }

func TestWebFetchCachesPerSession(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprintf(w, "visit %d", hits.Add(1))
	}))
	defer srv.Close()
	tool := NewWebFetch(WebFetchOptions{AllowPrivateNetwork: true})
	one, other := &Env{Web: NewWebCache()}, &Env{Web: NewWebCache()}
	a, _ := fetch(t, tool, one, srv.URL+"/p#intro")
	b, _ := fetch(t, tool, one, srv.URL+"/p#usage") // the fragment is no other page
	c, _ := fetch(t, tool, other, srv.URL+"/p")
	if !strings.HasSuffix(a, "visit 1") || a != b || !strings.HasSuffix(c, "visit 2") {
		t.Errorf("fetches: %q, %q, %q", a, b, c)
	}
}

func TestWebFetchCutsABigPage(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		chunk := strings.Repeat("x", 1<<20)
		for range 8 {
			if _, err := fmt.Fprint(w, chunk); err != nil {
				return
			}
		}
	}))
	defer srv.Close()
	out, err := fetch(t, NewWebFetch(WebFetchOptions{AllowPrivateNetwork: true}), &Env{}, srv.URL)
	if err != nil || !strings.HasSuffix(out, "[the page was cut at 5 MiB]") {
		t.Fatalf("%d bytes, %v", len(out), err)
	}
}

func TestWebFetchRefusesBadURLsBeforeAsking(t *testing.T) {
	tool := NewWebFetch(WebFetchOptions{})
	for _, raw := range []string{
		`{"url":"file:///etc/passwd"}`, `{"url":"ftp://example.com/"}`, `{"url":"https://user:pw@example.com/"}`,
		`{"url":""}`, `{"url":"https:///nohost"}`, `{"url":"https://example.com","method":"POST"}`,
		`{"url":"https://example.com/` + strings.Repeat("a", webMaxURL) + `"}`,
	} {
		if _, err := tool.Describe(context.Background(), json.RawMessage(raw), &Env{}); err == nil {
			t.Errorf("%s: described; want an error", raw)
		}
	}
	act, err := tool.Describe(context.Background(), fetchArgs("https://Pkg.Go.Dev/strings#Cut"), &Env{})
	if err != nil {
		t.Fatal(err)
	}
	// Asked per domain: the scope is the host, not the page.
	if act.Scope != "web_fetch:pkg.go.dev" || act.Risk != permission.Medium || act.ReadOnly || act.Summary != "fetch https://Pkg.Go.Dev/strings" {
		t.Errorf("action %+v", act)
	}
}

func TestPrivateKind(t *testing.T) {
	for addr, want := range map[string]string{
		"127.0.0.1": "loopback", "::1": "loopback", "::ffff:127.0.0.1": "loopback",
		"10.1.2.3": "private", "192.168.1.1": "private", "172.16.0.1": "private", "fd00::1": "private",
		"169.254.169.254": "link-local", "fe80::1": "link-local", // the cloud metadata service among them
		"0.0.0.0": "unspecified", "::": "unspecified", "0.1.2.3": "this-network",
		"100.64.0.1": "shared (carrier-grade NAT)", "64:ff9b::7f00:1": "NAT64", "::7f00:1": "IPv4-compatible",
		"239.1.1.1": "multicast", "224.0.0.251": "link-local", "2002:7f00:1::": "6to4",
		"8.8.8.8": "", "2606:4700:4700::1111": "", "151.101.1.1": "",
	} {
		if got := privateKind(netip.MustParseAddr(addr)); got != want {
			t.Errorf("%s: %q, want %q", addr, got, want)
		}
	}
}

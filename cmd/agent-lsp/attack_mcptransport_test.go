//go:build linux

package main

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agent-lsp/agent-lsp/internal/await"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// The MCP transports' own boundaries, with servers the user configured
// (trusted): an HTTP server's redirect must not carry the entry's
// credentials to another origin, and a stdio server's whole process tree
// dies with the daemon, even by kill -9.

// mcpServerState asks the daemon for one server's state and error.
func mcpServerState(t *testing.T, d *attackDaemon, name string) (state, errText string) {
	t.Helper()
	var st struct {
		Servers []struct {
			Name, State, Error string
		} `json:"servers"`
	}
	if err := d.ed.Call(d.ctx, "agent/mcpStatus", map[string]any{}, &st); err != nil {
		t.Fatal(err)
	}
	for _, s := range st.Servers {
		if s.Name == name {
			return s.State, s.Error
		}
	}
	return "", ""
}

// credentialSink is "another origin": an HTTP server that keeps every
// header it was sent and answers 401, as a server wanting a token would.
type credentialSink struct {
	mu       sync.Mutex
	requests int
	headers  []string // "Name: value", every header of every request
}

func (c *credentialSink) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c.mu.Lock()
	c.requests++
	for k, vs := range r.Header {
		for _, v := range vs {
			c.headers = append(c.headers, k+": "+v)
		}
	}
	c.mu.Unlock()
	http.Error(w, "who are you", http.StatusUnauthorized)
}

func (c *credentialSink) got() (int, []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.requests, append([]string(nil), c.headers...)
}

// The user's own HTTP entry sends a token (from the environment) and a
// key header; its server answers with a 307 to a listener on another
// port. That listener gets the request but neither header nor the
// token's value, and the status names the redirect.
func attackMCPRedirect(t *testing.T, acct account, sum *campaignSummary) {
	lab := newAttackLab(t, acct, false)
	sink := &credentialSink{}
	other := httptest.NewServer(sink)
	t.Cleanup(other.Close)
	entry := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+r.URL.Path, http.StatusTemporaryRedirect)
	}))
	t.Cleanup(entry.Close)
	const keyCanary = "canary-mcp-x-api-key-a77ac4"
	lab.secrets["X-Api-Key"] = keyCanary
	srv := providertest.NewServer(t, providertest.Script{{Text: "Nothing to do."}}, providertest.WithAPIKey(lab.secrets[attackKeyEnv]))
	d := startAttackDaemon(t, lab, srv, &popupLog{choose: denying}, map[string]any{"mcpServers": map[string]any{
		"docs": map[string]any{"type": "http", "url": entry.URL + "/mcp", "headers": map[string]string{
			"Authorization": "Bearer ${" + githubEnv + "}",
			"X-Api-Key":     keyCanary,
		}},
	}})
	// A poll: MCP status changes are not notified.
	var errText string
	await.Poll(t, 30*time.Second, "the redirected server's failure", func() bool {
		var state string
		state, errText = mcpServerState(t, d, "docs")
		return state != "starting" && errText != ""
	})
	d.prompt(t, "Anything?")
	d.exit(t)

	n, headers := sink.got()
	if n == 0 {
		t.Fatal("the other origin got no request: the redirect was not followed, the check proves nothing")
	}
	leaked := false
	for _, h := range headers {
		name := strings.ToLower(h[:strings.IndexByte(h, ':')])
		if name == "authorization" || name == "x-api-key" || name == "cookie" || strings.Contains(h, lab.secrets[githubEnv]) || strings.Contains(h, keyCanary) {
			leaked = true
			t.Errorf("the other origin received %q", h)
		}
	}
	if !strings.Contains(errText, "redirected to "+other.URL+", another origin") {
		t.Errorf("the status does not name the redirect: %q", errText)
	}
	sum.add("MCP redirect to another origin (credentials)", !leaked, false, false)
	lab.checkNoSecret(t, srv, d.stderr.String())
}

// The user's own stdio server is a shell that starts daemons with setsid
// (one of them starting a child of its own) and then serves the demo.
// kill -9 of the daemon leaves none of the server's tree running.
func attackMCPSetsid(t *testing.T, acct account, sum *campaignSummary) {
	lab := newAttackLab(t, acct, false)
	// Unique among concurrent runs: sleep takes a fraction.
	tag := fmt.Sprintf("%d%d", os.Getpid(), acct.uid)
	sleeps := []string{"600." + tag, "601." + tag, "602." + tag}
	script := fmt.Sprintf(`setsid sleep %s & setsid sh -c 'sleep %s & exec sleep %s' & exec "$0" mcp-demo`, sleeps[0], sleeps[1], sleeps[2])
	srv := providertest.NewServer(t, providertest.Script{{Text: "Nothing to do."}}, providertest.WithAPIKey(lab.secrets[attackKeyEnv]))
	d := startAttackDaemon(t, lab, srv, &popupLog{choose: denying}, map[string]any{"mcpServers": map[string]any{
		"spawner": map[string]any{"command": "sh", "args": []string{"-c", script, lab.bin}},
	}})
	// Polls: state outside the process (the daemon's status, /proc).
	await.Poll(t, 30*time.Second, "the server ready", func() bool {
		state, _ := mcpServerState(t, d, "spawner")
		return state == "ready"
	})
	await.Poll(t, 10*time.Second, "the setsid daemons running", func() bool {
		for _, s := range sleeps {
			if findProcess("sleep\x00"+s+"\x00") == 0 {
				return false
			}
		}
		return true
	})
	tree := descendants(d.cmd.Process.Pid)
	for _, s := range sleeps {
		if pid := findProcess("sleep\x00" + s + "\x00"); !tree[pid] {
			t.Errorf("sleep %s (pid %d) is not in the daemon's tree %v", s, pid, tree)
		}
	}
	if err := syscallKill(d.cmd.Process.Pid); err != nil {
		t.Fatal(err)
	}
	_ = d.cmd.Wait()
	d.exited = true
	survived := 0
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for pid := range tree {
		if err := await.Exit(ctx, pid); err != nil {
			survived++
			cmdline, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
			t.Errorf("pid %d (%q) outlived the daemon's kill -9: %v", pid, cmdline, err)
			_ = syscallKill(pid) // ours: leave nothing behind
		}
	}
	sum.add("MCP server's setsid grandchildren after kill -9", survived == 0, false, false)
}

// descendants are the processes below pid (not pid itself), from /proc.
func descendants(pid int) map[int]bool {
	children := map[int][]int{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		child, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		data, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		s := string(data)
		fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(fields) < 2 {
			continue
		}
		ppid, _ := strconv.Atoi(fields[1])
		children[ppid] = append(children[ppid], child)
	}
	out := map[int]bool{}
	queue := []int{pid}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, c := range children[p] {
			if !out[c] {
				out[c] = true
				queue = append(queue, c)
			}
		}
	}
	return out
}

package lsp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agent-lsp/agent-lsp/internal/await"
	"github.com/agent-lsp/agent-lsp/lsp/lsptest"
)

// A hostile repository: its .mcp.json would send the canary by env and by
// header. Nothing runs and nothing is sent (not even a connection) until
// the user approves; Deny and a dismissed popup start nothing; "Allow
// always" starts it, a restarted daemon starts it without asking, and an
// edited entry asks again.
func TestHostileRepositoryMCPConfigWaitsForTrust(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	envSink, headers := lsptest.NewTCPSink(t), lsptest.NewMCPHTTPSink(t)
	root, stateDir := t.TempDir(), t.TempDir()
	writeFiles(t, root, map[string]string{".mcp.json": hostileMCPJSON(t, envSink.Addr, headers.URL, "")})
	daemonEnv := []string{canaryName + "=" + canaryValue}
	nothingSent := func(when string) {
		t.Helper()
		if n := envSink.Connections(); n != 0 {
			t.Errorf("%s: the stdio entry connected %d times", when, n)
		}
		if n, h := headers.Seen(); n != 0 {
			t.Errorf("%s: the http entry connected %d times (headers %q)", when, n, h)
		}
	}

	// Run 1: both entries are asked about, one popup at a time; before
	// any answer both are untrusted and nothing ran.
	p1 := newPopups()
	d1 := startTrustDaemon(t, stateDir, daemonEnv, lsptest.Handlers{ShowMessageRequest: p1.handler})
	if _, err := d1.ed.Initialize(ctx(t), root, fullCaps, nil); err != nil {
		t.Fatal(err)
	}
	first := p1.next(t)
	for _, want := range []string{"env-thief", "bash -c", "/dev/tcp/", canaryName, "with environment:\n    T=${" + canaryName + "}", ".mcp.json"} {
		if !strings.Contains(first.Message, want) {
			t.Errorf("popup does not name %q:\n%s", want, first.Message)
		}
	}
	if strings.Contains(first.Message, canaryValue) {
		t.Fatalf("the popup shows the secret:\n%s", first.Message)
	}
	var titles []string
	for _, a := range first.Actions {
		titles = append(titles, a.Title)
	}
	if strings.Join(titles, "|") != "Allow|Allow always for this workspace|Deny" {
		t.Errorf("popup actions = %q", titles)
	}
	st := d1.mcpStatus(t)
	for _, name := range []string{"env-thief", "header-thief"} {
		if s := st[name]; s.State != "untrusted" || s.Trust != "untrusted" || s.Reason == "" || s.Hash == "" ||
			len(s.Variables) != 1 || s.Variables[0] != canaryName {
			t.Errorf("status of %s before any answer = %+v", name, s)
		}
	}
	if s := st["env-thief"]; !strings.Contains(s.Reason, "waiting for your answer") || !strings.Contains(s.Target, "bash -c") {
		t.Errorf("env-thief while asked = %+v", s)
	}
	if s := st["header-thief"]; s.Target != headers.URL {
		t.Errorf("header-thief target = %q, want the URL as written", s.Target)
	}
	nothingSent("before any answer")

	p1.answers <- "Deny"
	second := p1.next(t)
	if !strings.Contains(second.Message, "header-thief") || !strings.Contains(second.Message, "sending headers: Authorization") ||
		!strings.Contains(second.Message, headers.URL) {
		t.Errorf("second popup:\n%s", second.Message)
	}
	p1.answers <- "" // dismissed: Deny
	st = d1.waitStatus(t, "both denied", func(st map[string]trustStatus) bool {
		return strings.Contains(st["env-thief"].Reason, "denied") && strings.Contains(st["header-thief"].Reason, "dismissed")
	})
	for _, name := range []string{"env-thief", "header-thief"} {
		if s := st[name]; s.State != "untrusted" || !strings.Contains(s.Reason, "agent/mcpTrust") {
			t.Errorf("%s after Deny = %+v", name, s)
		}
	}
	// Approved later, through the method: it starts, with the token.
	var res struct {
		Servers []trustStatus `json:"servers"`
	}
	if err := d1.ed.Call(ctx(t), "agent/mcpTrust", map[string]any{"server": "header-thief", "decision": "always", "hash": "sha256:not-it"}, &res); err == nil {
		t.Error("agent/mcpTrust with a stale hash was accepted")
	}
	if err := d1.ed.Call(ctx(t), "agent/mcpTrust", map[string]any{"server": "header-thief", "decision": "always",
		"hash": st["header-thief"].Hash}, &res); err != nil {
		t.Fatal(err)
	}
	d1.waitStatus(t, "header-thief ready", func(st map[string]trustStatus) bool {
		return st["header-thief"].State == "ready" && st["header-thief"].Trust == "always"
	})
	if s := d1.mcpStatus(t)["env-thief"]; s.State != "untrusted" {
		t.Errorf("env-thief = %+v", s)
	}
	d1.exit(t)
	if n := envSink.Connections(); n != 0 {
		t.Errorf("run 1: the denied stdio entry connected %d times", n)
	}
	if _, h := headers.Seen(); len(h) == 0 || h[0] != "Bearer "+canaryValue {
		t.Errorf("the trusted http entry sent Authorization %q", h)
	}
	p1.none(t)

	// Run 2: header-thief starts without asking; env-thief (denied, not
	// stored) is asked again and allowed always.
	p2 := newPopups()
	d2 := startTrustDaemon(t, stateDir, daemonEnv, lsptest.Handlers{ShowMessageRequest: p2.handler})
	if _, err := d2.ed.Initialize(ctx(t), root, fullCaps, nil); err != nil {
		t.Fatal(err)
	}
	if q := p2.next(t); !strings.Contains(q.Message, "env-thief") {
		t.Fatalf("run 2 asked:\n%s", q.Message)
	}
	p2.answers <- "Allow always for this workspace"
	sent := envSink.Next(t, 15*time.Second)
	if !strings.Contains(sent, "T="+canaryValue) {
		t.Errorf("the trusted stdio entry did not get its variable:\n%s", sent)
	}
	if strings.Contains(sent, canaryName+"=") {
		t.Errorf("the daemon's own %s reached the child:\n%s", canaryName, sent)
	}
	d2.waitStatus(t, "both ready", func(st map[string]trustStatus) bool {
		return st["env-thief"].State == "ready" && st["env-thief"].Trust == "always" && st["header-thief"].State == "ready"
	})
	d2.exit(t)
	p2.none(t)

	// Run 3: both trusted always: no popup.
	p3 := newPopups()
	d3 := startTrustDaemon(t, stateDir, daemonEnv, lsptest.Handlers{ShowMessageRequest: p3.handler})
	if _, err := d3.ed.Initialize(ctx(t), root, fullCaps, nil); err != nil {
		t.Fatal(err)
	}
	d3.waitStatus(t, "both ready without asking", func(st map[string]trustStatus) bool {
		return st["env-thief"].State == "ready" && st["header-thief"].State == "ready"
	})
	envSink.Next(t, 15*time.Second)
	d3.exit(t)
	p3.none(t)

	// Run 4: env-thief was edited: asked again, denied, not started; the
	// unchanged header-thief starts without asking.
	writeFiles(t, root, map[string]string{".mcp.json": hostileMCPJSON(t, envSink.Addr, headers.URL, "--edited")})
	before := envSink.Connections()
	p4 := newPopups()
	d4 := startTrustDaemon(t, stateDir, daemonEnv, lsptest.Handlers{ShowMessageRequest: p4.handler})
	if _, err := d4.ed.Initialize(ctx(t), root, fullCaps, nil); err != nil {
		t.Fatal(err)
	}
	if q := p4.next(t); !strings.Contains(q.Message, "env-thief") || !strings.Contains(q.Message, "--edited") {
		t.Fatalf("run 4 asked:\n%s", q.Message)
	}
	if s := d4.mcpStatus(t)["env-thief"]; s.State != "untrusted" {
		t.Errorf("the edited entry while asked = %+v", s)
	}
	p4.answers <- "Deny"
	d4.waitStatus(t, "edited entry denied, the other ready", func(st map[string]trustStatus) bool {
		return strings.Contains(st["env-thief"].Reason, "denied") && st["header-thief"].State == "ready"
	})
	d4.exit(t)
	if n := envSink.Connections(); n != before {
		t.Errorf("the edited, denied entry connected (%d → %d)", before, n)
	}
	p4.none(t)
	data, err := os.ReadFile(filepath.Join(stateDir, "trust", "mcp-servers.json"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), canaryValue) {
		t.Errorf("the trust store holds the secret:\n%s", data)
	}
	if strings.Contains(string(data), "env-thief") {
		t.Errorf("denying the edited entry left its old approval in the store:\n%s", data)
	}
}

// An MCP stdio server dies with the daemon even when the daemon is killed
// with SIGKILL and no cleanup runs: sleep ignores its closed stdin, so only
// the parent-death signal can end it.
func TestMCPServerDiesWithKilledDaemon(t *testing.T) {
	if _, err := os.Stat("/proc/self/environ"); err != nil {
		t.Skip("no /proc")
	}
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Skip("no sleep")
	}
	mark := fmt.Sprintf("%s-%d", t.Name(), time.Now().UnixNano())
	d := startTrustDaemon(t, t.TempDir(), nil, lsptest.Handlers{})
	if _, err := d.ed.Initialize(ctx(t), t.TempDir(), fullCaps, map[string]any{"mcpServers": map[string]any{
		"sleeper": map[string]any{"command": sleep, "args": []string{"300"}, "env": map[string]string{envDemoMark: mark}},
	}}); err != nil {
		t.Fatal(err)
	}
	var servers []int
	await.Poll(t, 15*time.Second, "the server process to start", func() bool {
		servers = markedProcesses(t, mark)
		return len(servers) > 0
	})
	d.kill(t)
	wctx, cancel := context.WithTimeout(ctx(t), 5*time.Second)
	defer cancel()
	for _, pid := range servers {
		if err := await.Exit(wctx, pid); err != nil {
			t.Fatalf("server process alive after the daemon was killed: %v", err)
		}
	}
}

// agent/mcpTrust decides while the popup is still open: the entry starts
// at once, the popup's late Deny does not undo it, and a later deny
// through the method stops the running server and leaves it untrusted.
func TestMCPTrustMethodWinsOverALateAnswerAndDenyStops(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	mark := fmt.Sprintf("%s-%d", t.Name(), time.Now().UnixNano())
	entry, err := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"demo":  map[string]any{"command": exe, "args": []string{"mcp-demo"}, "env": map[string]string{envDemoMark: mark}},
		"later": map[string]any{"command": filepath.Join(t.TempDir(), "never-started")},
	}})
	if err != nil {
		t.Fatal(err)
	}
	p := newPopups()
	s := start(t, nil, setupOptions{files: map[string]string{".mcp.json": string(entry)},
		handlers: lsptest.Handlers{ShowMessageRequest: p.handler}})
	s.initialize(nil)
	byName := func(st mcpStatusResult) map[string]mcpServerStatus {
		out := map[string]mcpServerStatus{}
		for _, sv := range st.Servers {
			out[sv.Name] = sv
		}
		return out
	}
	if q := p.next(t); !strings.Contains(q.Message, "demo") {
		t.Fatalf("popup: %s", q.Message)
	}
	if pids := markedProcesses(t, mark); len(pids) != 0 {
		t.Fatalf("the untrusted entry runs: %v", pids)
	}
	if err := s.ed.Call(ctx(t), "agent/mcpTrust", map[string]any{"server": "demo", "decision": "allow"}, nil); err != nil {
		t.Fatal(err)
	}
	s.waitMCP(func(st mcpStatusResult) bool { return byName(st)["demo"].State == "ready" })
	p.answers <- "Deny" // the popup, answered too late
	// The next popup comes once the daemon has handled that answer.
	if q := p.next(t); !strings.Contains(q.Message, "later") {
		t.Fatalf("second popup: %s", q.Message)
	}
	st := byName(s.waitMCP(func(mcpStatusResult) bool { return true }))
	if st["demo"].State != "ready" || st["demo"].Tools != 2 || st["later"].State != "untrusted" {
		t.Errorf("after the late Deny: %+v", st)
	}
	p.answers <- "Deny"

	if err := s.ed.Call(ctx(t), "agent/mcpTrust", map[string]any{"server": "demo", "decision": "deny"}, nil); err != nil {
		t.Fatal(err)
	}
	s.waitMCP(func(st mcpStatusResult) bool { return byName(st)["demo"].State == "untrusted" })
	if pids := markedProcesses(t, mark); len(pids) != 0 {
		t.Errorf("the denied server still runs: %v", pids)
	}
	var tl struct {
		Tools []struct{ Name string } `json:"tools"`
	}
	if err := s.ed.Call(ctx(t), "agent/tools", map[string]any{}, &tl); err != nil {
		t.Fatal(err)
	}
	for _, tool := range tl.Tools {
		if strings.HasPrefix(tool.Name, "mcp__demo__") {
			t.Errorf("tool %s still listed after deny", tool.Name)
		}
	}
	if err := s.ed.Call(ctx(t), "agent/mcpTrust", map[string]any{"server": "nosuch", "decision": "allow"}, nil); err == nil {
		t.Error("agent/mcpTrust accepted an unknown server")
	}
	if err := s.ed.Call(ctx(t), "agent/mcpTrust", map[string]any{"server": "demo", "decision": "maybe"}, nil); err == nil {
		t.Error("agent/mcpTrust accepted an unknown decision")
	}
}

// A trust store that cannot be read trusts nothing: the daemon warns
// (naming the file), asks as if nothing were remembered, and serves.
func TestCorruptTrustStoreIsAWarningAndAsks(t *testing.T) {
	stateDir := t.TempDir()
	store := filepath.Join(stateDir, "trust", "mcp-servers.json")
	writeFiles(t, stateDir, map[string]string{filepath.Join("trust", "mcp-servers.json"): `{"version":1,"workspaces":{`})
	p := newPopups()
	s := start(t, nil, setupOptions{stateDir: stateDir,
		files:    map[string]string{".mcp.json": `{"mcpServers":{"x":{"command":"never-started-command"}}}`},
		handlers: lsptest.Handlers{ShowMessageRequest: p.handler}})
	s.initialize(nil)
	warning, err := s.ed.WaitFor(ctx(t), func(n lsptest.Notification) bool {
		return n.Method == "window/showMessage" && strings.Contains(string(n.Params), "corrupt")
	})
	if err != nil {
		t.Fatalf("no warning about the store: %v", err)
	}
	if !strings.Contains(string(warning.Params), store) {
		t.Errorf("warning does not name %s: %s", store, warning.Params)
	}
	if q := p.next(t); !strings.Contains(q.Message, "never-started-command") {
		t.Errorf("popup: %s", q.Message)
	}
	p.answers <- "Deny"
	st := s.waitMCP(func(st mcpStatusResult) bool { return len(st.Servers) == 1 && st.Servers[0].State == "untrusted" })
	if len(st.ConfigErrors) == 0 || !strings.Contains(strings.Join(st.ConfigErrors, " "), store) {
		t.Errorf("configErrors = %q, want the store's problem", st.ConfigErrors)
	}
}

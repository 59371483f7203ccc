package lsp_test

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/agent-lsp/agent-lsp/lsp/lsptest"
)

// serverScript is a workspace's MCP server script: it tells the sink its
// version, then runs the demo server (so that it becomes ready).
func serverScript(t *testing.T, sinkAddr, version string) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	host, port, _ := net.SplitHostPort(sinkAddr)
	return fmt.Sprintf("echo %s >/dev/tcp/%s/%s\nunset %s\nexec %q mcp-demo\n", version, host, port, envDaemonDialect, exe)
}

// "Allow always" for an entry that runs a workspace script binds the
// script: a restarted daemon starts it unasked while it is unchanged, and
// once the repository swapped it, the popup asks again, says which file
// changed, and the new script does not run on a "no".
func TestTrustedEntryWhoseScriptChangedAsksAgain(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	sink := lsptest.NewTCPSink(t)
	root, stateDir := t.TempDir(), t.TempDir()
	cfg, err := json.Marshal(map[string]any{"mcpServers": map[string]any{"tools": map[string]any{
		"command": "bash", "args": []string{"tools/server.sh"}, "env": map[string]string{"PYTHONPATH": "tools", "MODE": "fast"}}}})
	if err != nil {
		t.Fatal(err)
	}
	writeFiles(t, root, map[string]string{".mcp.json": string(cfg), "tools/server.sh": serverScript(t, sink.Addr, "v1")})
	start := func(p *popups) *daemonProcess {
		d := startTrustDaemon(t, stateDir, nil, lsptest.Handlers{ShowMessageRequest: p.handler})
		if _, err := d.ed.Initialize(ctx(t), root, fullCaps, nil); err != nil {
			t.Fatal(err)
		}
		return d
	}

	p1 := newPopups()
	d1 := start(p1)
	q := p1.next(t)
	for _, want := range []string{"tools/server.sh", "MODE=fast", "PYTHONPATH=tools", "PYTHONPATH points into the workspace"} {
		if !strings.Contains(q.Message, want) {
			t.Errorf("the first popup lacks %q:\n%s", want, q.Message)
		}
	}
	p1.answers <- "Allow always for this workspace"
	if got := sink.Next(t, 15*time.Second); !strings.Contains(got, "v1") {
		t.Errorf("the allowed script sent %q", got)
	}
	d1.waitStatus(t, "ready", func(st map[string]trustStatus) bool { return st["tools"].State == "ready" })
	d1.exit(t)
	p1.none(t)

	// Unchanged: no question.
	p2 := newPopups()
	d2 := start(p2)
	if got := sink.Next(t, 15*time.Second); !strings.Contains(got, "v1") {
		t.Errorf("the unchanged script sent %q", got)
	}
	d2.waitStatus(t, "ready without asking", func(st map[string]trustStatus) bool { return st["tools"].State == "ready" })
	d2.exit(t)
	p2.none(t)

	// The repository swaps the script: asked again, denied, not run.
	writeFiles(t, root, map[string]string{"tools/server.sh": serverScript(t, sink.Addr, "v2-swapped")})
	before := sink.Connections()
	p3 := newPopups()
	d3 := start(p3)
	q = p3.next(t)
	if !strings.Contains(q.Message, "tools/server.sh changed since you allowed it") {
		t.Errorf("the popup does not say the script changed:\n%s", q.Message)
	}
	if s := d3.mcpStatus(t)["tools"]; s.State != "untrusted" {
		t.Errorf("the swapped entry while asked = %+v", s)
	}
	p3.answers <- "Deny"
	d3.waitStatus(t, "denied", func(st map[string]trustStatus) bool { return strings.Contains(st["tools"].Reason, "denied") })
	d3.exit(t)
	p3.none(t)
	if n := sink.Connections(); n != before {
		t.Errorf("the swapped script ran without a yes (%d → %d connections): %q", before, n, sink.Received())
	}
}

// A script rewritten while the popup is open is not what the user was
// asked about: "Allow always" then starts nothing, the status says which
// file changed, and agent/mcpTrust allows what is there now.
func TestScriptChangedWhileAskedIsNotStarted(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	sink := lsptest.NewTCPSink(t)
	root, stateDir := t.TempDir(), t.TempDir()
	cfg, err := json.Marshal(map[string]any{"mcpServers": map[string]any{"tools": map[string]any{
		"command": "bash", "args": []string{"tools/server.sh"}}}})
	if err != nil {
		t.Fatal(err)
	}
	writeFiles(t, root, map[string]string{".mcp.json": string(cfg), "tools/server.sh": serverScript(t, sink.Addr, "v1")})
	p := newPopups()
	d := startTrustDaemon(t, stateDir, nil, lsptest.Handlers{ShowMessageRequest: p.handler})
	if _, err := d.ed.Initialize(ctx(t), root, fullCaps, nil); err != nil {
		t.Fatal(err)
	}
	p.next(t)
	writeFiles(t, root, map[string]string{"tools/server.sh": serverScript(t, sink.Addr, "v2-while-asked")})
	p.answers <- "Allow always for this workspace"
	st := d.waitStatus(t, "the change named", func(st map[string]trustStatus) bool {
		return strings.Contains(st["tools"].Reason, "tools/server.sh changed since you were asked")
	})
	if s := st["tools"]; s.State != "untrusted" {
		t.Errorf("the entry changed while asked = %+v", s)
	}
	if n := sink.Connections(); n != 0 {
		t.Errorf("the script rewritten while asked ran (%d connections): %q", n, sink.Received())
	}
	var res struct {
		Servers []trustStatus `json:"servers"`
	}
	if err := d.ed.Call(ctx(t), "agent/mcpTrust", map[string]any{"server": "tools", "decision": "always"}, &res); err != nil {
		t.Fatal(err)
	}
	if got := sink.Next(t, 15*time.Second); !strings.Contains(got, "v2-while-asked") {
		t.Errorf("allowed again, the script sent %q", got)
	}
	d.waitStatus(t, "ready", func(st map[string]trustStatus) bool { return st["tools"].State == "ready" })
	d.exit(t)
	p.none(t)
}

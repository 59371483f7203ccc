package lsp_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/agent-lsp/agent-lsp/internal/await"
	"github.com/agent-lsp/agent-lsp/lsp/lsptest"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// envDemoMark marks the demo MCP server processes of one test, so that the
// test can find them in /proc.
const envDemoMark = "AGENT_LSP_TEST_MCP_MARK"

type mcpServerStatus struct {
	Name            string `json:"name"`
	State           string `json:"state"`
	ProtocolVersion string `json:"protocolVersion"`
	Tools           int    `json:"tools"`
	Error           string `json:"error"`
}

type mcpStatusResult struct {
	Servers      []mcpServerStatus `json:"servers"`
	ConfigErrors []string          `json:"configErrors"`
}

// waitMCP asks agent/mcpStatus until done accepts it: what it waits for
// is a server process's handshake, and the editor is told of no MCP state
// change, so there is no event to wait on.
func (s *setup) waitMCP(done func(mcpStatusResult) bool) mcpStatusResult {
	s.t.Helper()
	var st mcpStatusResult
	if !await.Polled(20*time.Second, func() bool {
		st = mcpStatusResult{}
		if err := s.ed.Call(ctx(s.t), "agent/mcpStatus", map[string]any{}, &st); err != nil {
			s.t.Fatalf("agent/mcpStatus: %v", err)
		}
		return done(st)
	}) {
		s.t.Fatalf("agent/mcpStatus never settled: %+v", st)
	}
	return st
}

// demoServerConfig runs this test binary as the demo server (TestMain),
// marked with mark.
func demoServerConfig(t *testing.T, mark string) map[string]any {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return map[string]any{"command": exe, "args": []string{"mcp-demo"}, "env": map[string]string{envDemoMark: mark}}
}

// markedProcesses returns the pids of processes not gone whose environment
// holds envDemoMark=mark.
func markedProcesses(t *testing.T, mark string) []int {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Skipf("no /proc: %v", err)
	}
	want := []byte(envDemoMark + "=" + mark)
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		env, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if err != nil || !bytes.Contains(env, want) || await.Gone(pid) {
			continue
		}
		pids = append(pids, pid)
	}
	return pids
}

// withoutTreeInits leaves out the inits the servers run under (the
// daemon's own binary, mcp.containTree), which carry their environment.
func withoutTreeInits(pids []int) []int {
	var out []int
	for _, pid := range pids {
		cmdline, _ := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "cmdline"))
		if args := bytes.Split(cmdline, []byte{0}); len(args) > 1 && string(args[1]) == "__tree-init" {
			continue
		}
		out = append(out, pid)
	}
	return out
}

// The demo MCP server configured in initializationOptions starts in the
// background, its tools are listed with their source, a prompt calls one
// through the agent after a popup that names the server, the tool and the
// arguments, and the server process is gone once the daemon has exited.
func TestMCPDemoServerThroughTheDaemon(t *testing.T) {
	script := providertest.Script{
		{ToolCalls: []providertest.Call{{ID: "call_wc", Name: "mcp__demo__word_count",
			Arguments: `{"text":"one two three"}`}}},
		{Text: "Three words."},
	}
	asked := make(chan protocol.ShowMessageRequestParams, 4)
	s := start(t, script, setupOptions{caps: fullCaps,
		handlers: lsptest.Handlers{ShowMessageRequest: answer("Allow", asked)}})
	mark := fmt.Sprintf("%s-%d", t.Name(), time.Now().UnixNano())
	s.initialize(map[string]any{"mcpServers": map[string]any{"demo": demoServerConfig(t, mark)}})

	st := s.waitMCP(func(st mcpStatusResult) bool {
		return len(st.Servers) == 1 && st.Servers[0].State != "starting"
	})
	demo := st.Servers[0]
	if demo.Name != "demo" || demo.State != "ready" || demo.Tools != 2 || demo.ProtocolVersion == "" || demo.Error != "" {
		t.Fatalf("demo status = %+v", demo)
	}
	t.Logf("demo server negotiated protocol %s", demo.ProtocolVersion)
	pids := withoutTreeInits(markedProcesses(t, mark))
	if len(pids) != 1 {
		t.Fatalf("demo server processes = %v, want one", pids)
	}

	var tl struct {
		Tools []struct {
			Name, Source string
		} `json:"tools"`
		Prompts json.RawMessage `json:"prompts"`
	}
	if err := s.ed.Call(ctx(t), "agent/tools", map[string]any{}, &tl); err != nil {
		t.Fatal(err)
	}
	sources := map[string]string{}
	for _, tool := range tl.Tools {
		sources[tool.Name] = tool.Source
	}
	for name, want := range map[string]string{"mcp__demo__word_count": "mcp:demo", "mcp__demo__current_time": "mcp:demo", "read_file": "builtin"} {
		if sources[name] != want {
			t.Errorf("agent/tools: %s has source %q, want %q (tools %v)", name, sources[name], want, sources)
		}
	}
	if string(tl.Prompts) != "[]" {
		t.Errorf("agent/tools prompts = %s, want [] (the demo server has none)", tl.Prompts)
	}

	r := s.prompt(map[string]any{"prompt": "How many words in 'one two three'?"})
	if r.StopReason != "end_turn" || r.Text != "Three words." {
		t.Fatalf("prompt result = %+v", r)
	}
	select {
	case p := <-asked:
		for _, want := range []string{"mcp__demo__word_count", `"demo"`, `"word_count"`, `{"text":"one two three"}`} {
			if !strings.Contains(p.Message, want) {
				t.Errorf("popup %q does not name %s", p.Message, want)
			}
		}
	default:
		t.Error("no approval popup for the MCP tool")
	}
	var result *update
	for _, u := range s.updates(r.SessionID) {
		if u.Kind == "tool_result" {
			result = &u
		}
	}
	if result == nil || result.ToolCallID != "call_wc" || result.Status != "completed" ||
		!strings.Contains(result.Output, "characters: 13, lines: 1, words: 3") {
		t.Errorf("tool_result = %+v", result)
	}
	if reqs := s.model.Requests(); len(reqs) != 2 || !bytes.Contains(reqs[0].Body, []byte(`"mcp__demo__word_count"`)) {
		t.Errorf("the model was not offered the MCP tool (%d requests)", len(reqs))
	}

	if err := s.ed.Call(ctx(t), "shutdown", nil, nil); err != nil {
		t.Fatal(err)
	}
	if err := s.ed.Notify(ctx(t), "exit", nil); err != nil {
		t.Fatal(err)
	}
	got := await.Event(t, s.served, "Serve to return after exit")
	if got.code != 0 || got.err != nil {
		t.Errorf("Serve = %d, %v; want 0, nil", got.code, got.err)
	}
	s.served <- got // for the cleanup
	// Serve returns after the MCP servers were stopped: nothing is left.
	if left := markedProcesses(t, mark); len(left) != 0 {
		t.Errorf("demo server processes left after exit: %v", left)
	}
}

// The end of the daemon's input (the editor vanished) also stops the MCP
// servers.
func TestMCPServersStopAtTheEndOfInput(t *testing.T) {
	s := start(t, nil, setupOptions{})
	mark := fmt.Sprintf("%s-%d", t.Name(), time.Now().UnixNano())
	s.initialize(map[string]any{"mcpServers": map[string]any{"demo": demoServerConfig(t, mark)}})
	s.waitMCP(func(st mcpStatusResult) bool { return len(st.Servers) == 1 && st.Servers[0].State == "ready" })
	if pids := withoutTreeInits(markedProcesses(t, mark)); len(pids) != 1 {
		t.Fatalf("demo server processes = %v, want one", pids)
	}
	s.stop()
	if left := markedProcesses(t, mark); len(left) != 0 {
		t.Errorf("demo server processes left after the input ended: %v", left)
	}
}

// Bad MCP configuration never fails initialize: the bad entry is named in
// a window/showMessage warning and in agent/mcpStatus, a server that cannot
// start is down with its error, and the built-in tools keep working.
func TestBadMCPConfigurationIsAWarning(t *testing.T) {
	s := start(t, nil, setupOptions{files: map[string]string{
		".mcp.json": `{"mcpServers": {"fromfile": {"command": ["not", "a", "string"]}}}`}})
	s.initialize(map[string]any{"mcpServers": map[string]any{
		"nosuch": map[string]any{"command": filepath.Join(s.root, "no-such-mcp-server")},
		"nourl":  map[string]any{"type": "http"},
	}})
	warning, err := s.ed.WaitFor(ctx(t), func(n lsptest.Notification) bool { return n.Method == "window/showMessage" })
	if err != nil {
		t.Fatalf("no warning: %v", err)
	}
	var msg protocol.ShowMessageParams
	if err := json.Unmarshal(warning.Params, &msg); err != nil {
		t.Fatal(err)
	}
	if msg.Type != protocol.MessageTypeWarning {
		t.Errorf("message type = %v, want warning", msg.Type)
	}
	for _, want := range []string{".mcp.json", "fromfile", "command", "nourl", "url"} {
		if !strings.Contains(msg.Message, want) {
			t.Errorf("warning %q does not name %q", msg.Message, want)
		}
	}

	st := s.waitMCP(func(st mcpStatusResult) bool {
		return len(st.Servers) == 1 && st.Servers[0].State != "starting"
	})
	if got := st.Servers[0]; got.Name != "nosuch" || got.State != "down" || got.Error == "" {
		t.Errorf("status of a server that cannot start = %+v", got)
	}
	if len(st.ConfigErrors) != 2 {
		t.Errorf("configErrors = %q, want the two bad entries", st.ConfigErrors)
	}
	var tl struct {
		Tools []struct{ Name, Source string } `json:"tools"`
	}
	if err := s.ed.Call(ctx(t), "agent/tools", map[string]any{}, &tl); err != nil {
		t.Fatal(err)
	}
	for _, tool := range tl.Tools {
		if tool.Source != "builtin" {
			t.Errorf("tool %s has source %q with no MCP server up", tool.Name, tool.Source)
		}
	}
	if len(tl.Tools) == 0 {
		t.Error("no tools listed")
	}
}

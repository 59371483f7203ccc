package mcp

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/tools"
)

// peersEnv names the folder scripts/install-mcp-peers installs the npm
// reference servers into; the default is <repo>/.cache/mcp-peers.
const peersEnv = "AGENT_LSP_MCP_PEERS"

// npmServer returns the command line of an installed npm reference server,
// skipping the test when node or the package is missing, except under CI
// (CI set), where .ci/run installs them and a miss is a failure.
func npmServer(t *testing.T, pkg string, args ...string) (string, []string) {
	t.Helper()
	dir := os.Getenv(peersEnv)
	if dir == "" {
		dir = filepath.Join("..", ".cache", "mcp-peers")
	}
	dir, _ = filepath.Abs(dir)
	miss := t.Skipf
	if os.Getenv("CI") != "" {
		miss = t.Fatalf
	}
	node, err := exec.LookPath("node")
	if err != nil {
		miss("node not found (%v): install Node.js to run the real MCP server tests", err)
	}
	script := filepath.Join(dir, "node_modules", "@modelcontextprotocol", pkg, "dist", "index.js")
	if _, err := os.Stat(script); err != nil {
		miss("%s not installed in %s: run scripts/install-mcp-peers (or set %s)", pkg, dir, peersEnv)
	}
	return node, append([]string{script}, args...)
}

func TestRealFilesystemServer(t *testing.T) {
	t.Parallel()
	node, args := npmServer(t, "server-filesystem")
	fixture := t.TempDir()
	for name, text := range map[string]string{"alpha.txt": "alpha\n", "beta.go": "package beta\n"} {
		if err := os.WriteFile(filepath.Join(fixture, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(fixture, "gamma"), 0o755); err != nil {
		t.Fatal(err)
	}
	// The roots advertised replace the directories given on the command line.
	m, reg := newTestManager(t, fixture)
	startAndWait(t, m, ServerConfig{Name: "fs", Type: TypeStdio, Command: node, Args: append(args, fixture)})
	st := statusOf(t, m, "fs")
	if st.State != StateReady {
		t.Fatalf("status = %+v", st)
	}
	t.Logf("server-filesystem negotiated protocol %s, %d tools", st.ProtocolVersion, st.Tools)

	o := call(t, reg, "mcp__fs__list_directory", `{"path":`+quote(fixture)+`}`)
	if o.Status != tools.StatusCompleted {
		t.Fatalf("list_directory = %s %q", o.Status, o.Output)
	}
	for _, want := range []string{"[FILE] alpha.txt", "[FILE] beta.go", "[DIR] gamma"} {
		if !strings.Contains(o.Output, want) {
			t.Errorf("list_directory output %q lacks %q", o.Output, want)
		}
	}
	o = call(t, reg, "mcp__fs__list_directory", `{"path":"/etc"}`)
	if o.Status != tools.StatusFailed {
		t.Errorf("listing outside the roots = %s %q, want failed", o.Status, o.Output)
	}
}

func TestRealEverythingServer(t *testing.T) {
	t.Parallel()
	node, args := npmServer(t, "server-everything", "stdio")
	m, reg := newTestManager(t)
	startAndWait(t, m, ServerConfig{Name: "every", Type: TypeStdio, Command: node, Args: args})
	st := statusOf(t, m, "every")
	if st.State != StateReady {
		t.Fatalf("status = %+v", st)
	}
	t.Logf("server-everything negotiated protocol %s, %d tools, %d prompts", st.ProtocolVersion, st.Tools, len(m.Prompts()))

	o := call(t, reg, "mcp__every__echo", `{"message":"hello from agent-lsp"}`)
	if o.Status != tools.StatusCompleted || !strings.Contains(o.Output, "hello from agent-lsp") {
		t.Errorf("echo = %s %q", o.Status, o.Output)
	}
	list := call(t, reg, "mcp__every__list_resources", `{}`)
	if list.Status != tools.StatusCompleted {
		t.Fatalf("list_resources = %s %q", list.Status, list.Output)
	}
	uri, _, _ := strings.Cut(strings.SplitN(list.Output, "\n", 2)[0], " ")
	if !strings.Contains(uri, "://") {
		t.Fatalf("no resource URI in %q", list.Output)
	}
	read := call(t, reg, "mcp__every__read_resource", `{"uri":`+quote(uri)+`}`)
	if read.Status != tools.StatusCompleted || !strings.Contains(read.Output, "[resource: "+uri) {
		t.Errorf("read_resource %s = %s %q", uri, read.Status, read.Output)
	}
	t.Logf("read_resource %s → %.120q", uri, read.Output)
	if len(m.Prompts()) == 0 {
		t.Errorf("server-everything's prompts not listed")
	}
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

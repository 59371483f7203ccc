package mcp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"
)

func env(kv map[string]string) func(string) string { return func(k string) string { return kv[k] } }

func writeMCPJSON(t *testing.T, text string) string {
	t.Helper()
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, ConfigFileName), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}

func TestLoadConfigMergeOrderLaterWins(t *testing.T) {
	root := writeMCPJSON(t, `{"mcpServers":{
		"fs":   {"command":"npx","args":["-y","@modelcontextprotocol/server-filesystem","${HOME}/src"],"env":{"A":"${A:-fallback}"},"cwd":"sub"},
		"gh":   {"type":"http","url":"https://api.example.com/mcp","headers":{"Authorization":"Bearer ${GH_TOKEN}"},"timeout":90000},
		"both": {"command":"from-file"}
	}}`)
	init := json.RawMessage(`{"both":{"command":"from-init","timeout":"45s"},"extra":{"url":"http://127.0.0.1:9/mcp"}}`)
	flags := []string{"both=from-flag --verbose", "npx -y @modelcontextprotocol/server-memory@2026.8.31"}
	getenv := env(map[string]string{"HOME": "/home/u", "GH_TOKEN": "t0k"})
	loaded := LoadConfig(root, init, flags, getenv)
	if len(loaded.Errors) != 0 {
		t.Fatalf("errors: %v", loaded.Errors)
	}
	got := map[string]ServerConfig{}
	var names []string
	for _, c := range loaded.Servers {
		got[c.Name] = c
		names = append(names, c.Name)
	}
	if want := []string{"both", "extra", "server-memory"}; !reflect.DeepEqual(names, want) {
		t.Fatalf("user-given names = %v, want %v", names, want)
	}
	ws := map[string]WorkspaceEntry{}
	var wsNames []string
	for _, e := range loaded.Workspace {
		ws[e.Name] = e
		wsNames = append(wsNames, e.Name)
	}
	// "both" in .mcp.json is overridden by the user's entry: nothing to trust.
	if want := []string{"fs", "gh"}; !reflect.DeepEqual(wsNames, want) {
		t.Fatalf("workspace names = %v, want %v", wsNames, want)
	}
	// As written until trusted.
	if e := ws["fs"]; e.Args[2] != "${HOME}/src" || !reflect.DeepEqual(e.Variables, []string{"A", "HOME"}) || !reflect.DeepEqual(e.EnvKeys, []string{"A"}) {
		t.Errorf("fs entry = %+v", e)
	}
	if e := ws["gh"]; !reflect.DeepEqual(e.Variables, []string{"GH_TOKEN"}) || !reflect.DeepEqual(e.HeaderKeys, []string{"Authorization"}) {
		t.Errorf("gh entry = %+v", e)
	}
	fs, err := ws["fs"].Config(getenv)
	if err != nil {
		t.Fatal(err)
	}
	if fs.Type != TypeStdio || fs.Command != "npx" || !reflect.DeepEqual(fs.Args, []string{"-y", "@modelcontextprotocol/server-filesystem", "/home/u/src"}) ||
		fs.Env["A"] != "fallback" || fs.Cwd != filepath.Join(root, "sub") || fs.Source != filepath.Join(root, ConfigFileName) {
		t.Errorf("fs = %+v", fs)
	}
	if gh, err := ws["gh"].Config(getenv); err != nil || gh.Type != TypeHTTP || gh.Headers["Authorization"] != "Bearer t0k" || gh.Timeout != 90*time.Second {
		t.Errorf("gh = %+v, %v", gh, err)
	}
	if ws["gh"].parsed.raw.Headers["Authorization"] != "Bearer ${GH_TOKEN}" {
		t.Fatal("Config changed the entry it expanded")
	}
	if b := got["both"]; b.Command != "from-flag" || !reflect.DeepEqual(b.Args, []string{"--verbose"}) || b.Source != "--mcp" {
		t.Errorf("both = %+v, want the flag's", b)
	}
	if e := got["extra"]; e.Type != TypeHTTP || e.Source != "initializationOptions" {
		t.Errorf("extra = %+v, want an http server inferred from url", e)
	}
	if mem := got["server-memory"]; mem.Command != "npx" || len(mem.Args) != 2 {
		t.Errorf("server-memory = %+v", mem)
	}
}

func TestLoadConfigErrorsNameSourceServerAndField(t *testing.T) {
	root := writeMCPJSON(t, `{"mcpServers":{
		"good":    {"command":"ok"},
		"noCmd":   {"args":["x"]},
		"badArgs": {"command":"x","args":"not-an-array"},
		"badType": {"type":"ws","url":"ws://x"},
		"badURL":  {"type":"http","url":"ftp://x"},
		"unset":   {"command":"x","env":{"T":"${NOT_SET}"}},
		"badTime": {"command":"x","timeout":"soon"}
	}}`)
	loaded := LoadConfig(root, json.RawMessage(`{"i":{"command":7},"iUnset":{"command":"${NOT_SET}"}}`), []string{""}, env(nil))
	var wsNames []string
	errs := loaded.Errors
	for _, e := range loaded.Workspace {
		wsNames = append(wsNames, e.Name)
		// The value checks and the expansion wait for trust.
		if _, err := e.Config(env(nil)); err != nil {
			errs = append(errs, err)
		}
	}
	if want := []string{"badURL", "good", "unset"}; !reflect.DeepEqual(wsNames, want) || len(loaded.Servers) != 0 {
		t.Errorf("workspace entries = %v (want %v), user servers = %+v", wsNames, want, loaded.Servers)
	}
	var msgs []string
	for _, e := range errs {
		msgs = append(msgs, e.Error())
	}
	all := strings.Join(msgs, "\n")
	for _, want := range []string{
		`.mcp.json: server "noCmd": field "command": required`,
		`server "badArgs": field "args": must be an array of strings`,
		`server "badType": field "type": must be`,
		`server "badURL": field "url"`,
		`server "unset": field "env": "T": environment variable NOT_SET is not set`,
		`server "badTime": field "timeout"`,
		`initializationOptions: server "i": field "command": must be a string`,
		`initializationOptions: server "iUnset": field "command": environment variable NOT_SET is not set`,
		`--mcp #1: empty value`,
	} {
		if !strings.Contains(all, want) {
			t.Errorf("errors lack %q:\n%s", want, all)
		}
	}
	if len(errs) != 9 {
		t.Errorf("%d errors, want 9:\n%s", len(errs), all)
	}
}

func TestLoadConfigBrokenFileAndDemoFlag(t *testing.T) {
	root := writeMCPJSON(t, `{"mcpServers": {`)
	loaded := LoadConfig(root, nil, []string{"demo"}, env(nil))
	if len(loaded.Errors) != 1 || !strings.Contains(loaded.Errors[0].Error(), ConfigFileName) {
		t.Errorf("errors = %v, want one naming the file", loaded.Errors)
	}
	cfgs := loaded.Servers
	exe, _ := os.Executable()
	if len(cfgs) != 1 || cfgs[0].Name != DemoServerName || cfgs[0].Command != exe || !reflect.DeepEqual(cfgs[0].Args, []string{"mcp-demo"}) {
		t.Errorf("demo config = %+v", cfgs)
	}
}

func TestNameFromCommand(t *testing.T) {
	for _, tc := range []struct{ cmd, want string }{
		{"npx -y @modelcontextprotocol/server-filesystem /tmp", "server-filesystem"},
		{"uvx mcp-server-git --repository .", "mcp-server-git"},
		{"node ./dist/index.js", "index"},
		{"/usr/local/bin/my.server --flag", "my"},
		{"python3 -m weather_server", "weather_server"},
	} {
		cfgs, errs := parseFlags([]string{tc.cmd}, "", env(nil))
		if len(errs) != 0 || len(cfgs) != 1 || cfgs[0].Name != tc.want {
			t.Errorf("%q → %+v %v, want name %q", tc.cmd, cfgs, errs, tc.want)
		}
	}
	cfgs, _ := parseFlags([]string{"npx a-server", "npx a-server --other"}, "", env(nil))
	if len(cfgs) != 2 || cfgs[0].Name != "a-server" || cfgs[1].Name != "a-server_2" {
		t.Errorf("duplicate names = %+v", cfgs)
	}
}

func TestChildEnvDropsSecretsKeepsConfigured(t *testing.T) {
	got := childEnv([]string{"PATH=/bin", "OPENAI_API_KEY=sk", "GITHUB_TOKEN=gh", "HOME=/h", "DB_PASSWORD=p",
		"AWS_ACCESS_KEY_ID=AKIA5EB1C0DE5EB1C0DE", "DATABASE_URL=postgres://u:pw-5eb1c0de@db/x"},
		map[string]string{"GITHUB_TOKEN": "given", "HOME": "/other"})
	want := []string{"PATH=/bin", "GITHUB_TOKEN=given", "HOME=/other"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("childEnv = %v, want %v", got, want)
	}
}

func TestWorkspaceConfigSymlinkOutsideIsNotRead(t *testing.T) {
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "x.json"), []byte(`{"mcpServers":{"evil":{"command":"true"}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	if err := os.Symlink(filepath.Join(outside, "x.json"), filepath.Join(root, ConfigFileName)); err != nil {
		t.Fatal(err)
	}
	loaded := LoadConfig(root, nil, nil, func(string) string { return "" })
	if len(loaded.Workspace) != 0 || len(loaded.Servers) != 0 {
		t.Fatalf("a .mcp.json linking outside the workspace was read: %+v", loaded)
	}
	if len(loaded.Errors) != 1 {
		t.Fatalf("want one error naming the refused file, got %v", loaded.Errors)
	}
}

func TestWorkspaceConfigFIFODoesNotBlock(t *testing.T) {
	root := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(root, ConfigFileName), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	loaded := LoadConfig(root, nil, nil, func(string) string { return "" })
	if len(loaded.Workspace) != 0 || len(loaded.Errors) != 1 {
		t.Fatalf("a FIFO .mcp.json: want one error and no entry, got %+v", loaded)
	}
}

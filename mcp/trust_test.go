package mcp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agent-lsp/agent-lsp/tools"
)

// workspaceEntry loads the single workspace entry of a .mcp.json text.
func workspaceEntry(t *testing.T, root, text string) WorkspaceEntry {
	t.Helper()
	if err := os.WriteFile(filepath.Join(root, ConfigFileName), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	loaded := LoadConfig(root, nil, nil, env(nil))
	if len(loaded.Errors) != 0 || len(loaded.Workspace) != 1 {
		t.Fatalf("loaded = %+v", loaded)
	}
	return loaded.Workspace[0]
}

func TestEntryHashFollowsContentNotLayout(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	base := workspaceEntry(t, root, `{"mcpServers":{"s":{"command":"run","args":["a"],"env":{"T":"${TOKEN}"}}}}`)
	relaid := workspaceEntry(t, root, "{\"mcpServers\":{\"s\":{\n  \"env\": {\"T\": \"${TOKEN}\"},\n  \"args\": [\"a\"], \"command\": \"run\"}}}")
	if base.Hash != relaid.Hash {
		t.Errorf("re-indented, reordered entry: hash %s != %s", relaid.Hash, base.Hash)
	}
	for name, text := range map[string]string{
		"an argument":  `{"mcpServers":{"s":{"command":"run","args":["b"],"env":{"T":"${TOKEN}"}}}}`,
		"a variable":   `{"mcpServers":{"s":{"command":"run","args":["a"],"env":{"T":"${OTHER}"}}}}`,
		"the command":  `{"mcpServers":{"s":{"command":"run2","args":["a"],"env":{"T":"${TOKEN}"}}}}`,
		"a new field":  `{"mcpServers":{"s":{"command":"run","args":["a"],"env":{"T":"${TOKEN}"},"cwd":"/"}}}`,
		"the name":     `{"mcpServers":{"t":{"command":"run","args":["a"],"env":{"T":"${TOKEN}"}}}}`,
		"an env value": `{"mcpServers":{"s":{"command":"run","args":["a"],"env":{"T":"${TOKEN}x"}}}}`,
	} {
		if e := workspaceEntry(t, root, text); e.Hash == base.Hash {
			t.Errorf("changing %s kept the hash", name)
		}
	}
}

func TestTrustStoreKeysByWorkspaceAndHash(t *testing.T) {
	t.Parallel()
	stateDir, rootA, rootB := t.TempDir(), t.TempDir(), t.TempDir()
	store := NewTrustStore(stateDir)
	const text = `{"mcpServers":{"s":{"command":"run","args":["a"]}}}`
	a, b := workspaceEntry(t, rootA, text), workspaceEntry(t, rootB, text)
	if ok, err := store.Trusted(a); ok || err != nil {
		t.Fatalf("fresh store: trusted=%v err=%v", ok, err)
	}
	if err := store.Remember(a, time.Now()); err != nil {
		t.Fatal(err)
	}
	if ok, err := store.Trusted(a); !ok || err != nil {
		t.Errorf("remembered entry: trusted=%v err=%v", ok, err)
	}
	if ok, _ := store.Trusted(b); ok {
		t.Error("the same entry in another workspace is trusted")
	}
	// The same folder by another path is the same workspace.
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(rootA, link); err != nil {
		t.Fatal(err)
	}
	viaLink := workspaceEntry(t, link, text)
	if ok, _ := store.Trusted(viaLink); !ok {
		t.Error("the workspace reached through a symlink is not trusted")
	}
	edited := workspaceEntry(t, rootA, `{"mcpServers":{"s":{"command":"run","args":["a","--exfiltrate"]}}}`)
	if ok, _ := store.Trusted(edited); ok {
		t.Error("an edited entry is still trusted")
	}
	// A fresh store on the same directory (a restarted daemon) reads it.
	if ok, _ := NewTrustStore(stateDir).Trusted(a); !ok {
		t.Error("the decision did not survive a new store")
	}
	fi, err := os.Stat(store.Path())
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("store file mode = %v, want 0600", fi.Mode().Perm())
	}
	if filepath.Dir(filepath.Dir(store.Path())) != stateDir || strings.HasSuffix(store.Path(), ".jsonl") {
		t.Errorf("store at %s: want a subdirectory of %s and no session file name", store.Path(), stateDir)
	}
	if err := store.Forget(rootA, "s"); err != nil {
		t.Fatal(err)
	}
	if ok, _ := store.Trusted(a); ok {
		t.Error("a forgotten entry is still trusted")
	}
	leftovers, _ := filepath.Glob(filepath.Join(filepath.Dir(store.Path()), "*.tmp"))
	if len(leftovers) != 0 {
		t.Errorf("temporary files left: %v", leftovers)
	}
}

func TestCorruptTrustStoreTrustsNothingAndIsReplaced(t *testing.T) {
	t.Parallel()
	stateDir, root := t.TempDir(), t.TempDir()
	store := NewTrustStore(stateDir)
	e := workspaceEntry(t, root, `{"mcpServers":{"s":{"command":"run"}}}`)
	for name, text := range map[string]string{
		"not JSON":      `{"version":1,"workspaces":`,
		"wrong version": `{"version":99,"workspaces":{}}`,
	} {
		if err := os.MkdirAll(filepath.Dir(store.Path()), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(store.Path(), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		ok, err := store.Trusted(e)
		if ok || err == nil || !strings.Contains(err.Error(), store.Path()) {
			t.Errorf("%s: trusted=%v err=%v, want untrusted with a warning naming the file", name, ok, err)
		}
		if err := store.Remember(e, time.Now()); err != nil {
			t.Fatalf("%s: remembering over the broken file: %v", name, err)
		}
		if ok, err := store.Trusted(e); !ok || err != nil {
			t.Errorf("%s: after Remember trusted=%v err=%v", name, ok, err)
		}
		if err := store.Forget(root, "s"); err != nil {
			t.Fatal(err)
		}
	}
}

func TestDescribeNamesWhatTrustHandsOverAndEscapesControls(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	stdio := workspaceEntry(t, root, `{"mcpServers":{"ex\u001b[2J":{"command":"sh","args":["-c","nc 127.0.0.1 9 \u001b[1A"],"env":{"T":"${CANARY_TOKEN}","U":"${HOME}"}}}}`)
	d := stdio.Describe()
	for _, want := range []string{".mcp.json", `'ex\x1b[2J'`, "$ sh -c ", `\x1b[1A`, "CANARY_TOKEN", "HOME", "with environment:\n    T=${CANARY_TOKEN}\n    U=${HOME}"} {
		if !strings.Contains(d, want) {
			t.Errorf("description lacks %q:\n%s", want, d)
		}
	}
	if strings.ContainsRune(d, 0x1b) {
		t.Errorf("description carries a raw escape character:\n%q", d)
	}
	http := workspaceEntry(t, root, `{"mcpServers":{"h":{"url":"http://127.0.0.1:1/mcp","headers":{"Authorization":"Bearer ${CANARY_TOKEN}"}}}}`)
	d = http.Describe()
	for _, want := range []string{"connect to the MCP server h at http://127.0.0.1:1/mcp", "sending headers: Authorization", "CANARY_TOKEN"} {
		if !strings.Contains(d, want) {
			t.Errorf("description lacks %q:\n%s", want, d)
		}
	}
	if strings.Contains(d, "Bearer") {
		t.Errorf("description shows a header value:\n%s", d)
	}
}

// Expanding a trusted entry moves the variables it names into the vault:
// the value reaches this server's config, and no other child's
// environment.
func TestTrustedEntryHidesItsVariablesFromOtherChildren(t *testing.T) {
	const name = "AGENT_LSP_TEST_TRUST_CANARY"
	t.Setenv(name, "canary-value-1234")
	root := t.TempDir()
	e := workspaceEntry(t, root, `{"mcpServers":{"s":{"command":"run","env":{"T":"${`+name+`}"}}}}`)
	if e.parsed.raw.Env["T"] != "${"+name+"}" {
		t.Fatalf("the loaded entry was expanded: %v", e.parsed.raw.Env)
	}
	cfg, err := e.Config(tools.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Env["T"] != "canary-value-1234" {
		t.Errorf("expanded env = %v", cfg.Env)
	}
	if v, ok := os.LookupEnv(name); ok {
		t.Errorf("%s is still in the process environment (%q)", name, v)
	}
	for _, kv := range tools.ChildEnviron() {
		if strings.Contains(kv, "canary-value-1234") {
			t.Errorf("a child would inherit %q", kv)
		}
	}
}

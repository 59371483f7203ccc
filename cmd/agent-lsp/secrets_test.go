package main

import (
	"bytes"
	"context"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agent-lsp/agent-lsp/lsp/lsptest"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// The acceptance test of "the daemon's own secrets stay its own": canary
// secrets under six names, run through the real binary, appear nowhere a
// child, a file or a log could carry them.

// Canary names: the configured key variable under a name that does not
// look secret, preset and well-known credentials, and a variable only a
// user-given MCP entry references (its name does not look secret either).
const (
	keyEnv      = "ZQX_MODEL_CREDS"
	mcpEnv      = "ZQX_MCP_SETTING"
	githubEnv   = "GITHUB_TOKEN"
	awsEnv      = "AWS_SECRET_ACCESS_KEY"
	deepseekEnv = "DEEPSEEK_API_KEY"
	anthropEnv  = "ANTHROPIC_API_KEY"
)

func canaries() map[string]string {
	out := map[string]string{}
	for _, name := range []string{keyEnv, mcpEnv, githubEnv, awsEnv, deepseekEnv, anthropEnv} {
		out[name] = "canary-" + strings.ToLower(strings.ReplaceAll(name, "_", "-")) + "-5eb1c0de"
	}
	return out
}

// envDumpCommand prints the child's environment and then its parent's (the
// agent's) start-up environment block, one variable a line, and keeps a
// copy in the workspace: the tool result the model gets is redacted as
// well, and the copy shows what the child itself saw.
const envDumpCommand = `{ env; echo ==parent==; cat /proc/$PPID/environ | tr '\0' '\n'; } 2>&1 | tee seen-by-child.txt`

// sharedDir is a temporary directory any user may write, for a run as
// nobody.
func sharedDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "agent-lsp-secrets-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	return dir
}

func mkdirShared(t *testing.T, path string) string {
	t.Helper()
	if err := os.Mkdir(path, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o777); err != nil { // umask
		t.Fatal(err)
	}
	return path
}

// fileBorneCredentials are credentials in a workspace file, in no
// variable: they are redacted by their shape (fileBorneSecrets must
// appear nowhere, with the rest of the canaries).
const fileBorneCredentials = "db: postgres://app:file-dburl-5eb1c0de@db.internal/app\n" +
	"ci: ghp_f11eb0e5f11eb0e5f11eb0e5f11eb0e5f11e\n"

var fileBorneSecrets = map[string]string{
	"a file's database URL password": "file-dburl-5eb1c0de",
	"a file's GitHub token":          "ghp_f11eb0e5f11eb0e5f11eb0e5f11eb0e5f11e",
}

// assertNoCanary fails for every canary value found in where.
func assertNoCanary(t *testing.T, secrets map[string]string, where string, data []byte) {
	t.Helper()
	for name, v := range secrets {
		if bytes.Contains(data, []byte(v)) {
			t.Errorf("%s holds the value of %s", where, name)
		}
	}
}

// readTree returns every file under dir, by path.
func readTree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		out[p] = data
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// chatRun is one `agent-lsp chat -p` against the fake model.
type chatRun struct {
	srv                 *providertest.Server
	stdout, stderr      []byte
	ws, record, logFile string
	state               string
	exit                error
}

// runSecretChat runs the chat with the canaries in its environment: the
// model runs envDumpCommand and reads a workspace file holding a canary,
// with a recording, a raw dump, a debug log and a state dir; flags are
// added to the chat's, prefix runs it as another user.
func runSecretChat(t *testing.T, secrets map[string]string, flags []string, prefix ...string) chatRun {
	t.Helper()
	bin := agentBinary(t)
	base := sharedDir(t)
	ws := mkdirShared(t, filepath.Join(base, "ws"))
	notes := "deploy token: " + secrets[githubEnv] + "\n" + fileBorneCredentials
	if err := os.WriteFile(filepath.Join(ws, "notes.txt"), []byte(notes), 0o644); err != nil {
		t.Fatal(err)
	}
	r := chatRun{ws: ws, record: filepath.Join(base, "rec.jsonl"), logFile: filepath.Join(base, "agent.log"),
		state: mkdirShared(t, filepath.Join(base, "state"))}
	r.srv = providertest.NewServer(t, providertest.Script{
		{ToolCalls: []providertest.Call{
			{Name: "run_bash", Arguments: `{"command":` + jsonString(envDumpCommand) + `}`},
			{Name: "read_file", Arguments: `{"path":"notes.txt"}`},
		}},
		{Text: "Looked around."},
	}, providertest.WithAPIKey(secrets[keyEnv]))

	// A user-given MCP server whose command line expands the MCP canary;
	// it prints its argument to stderr, which the agent logs.
	probe := `probe=sh -c 'echo "probe argument: $0" >&2; exec "$1" mcp-demo' $` + mcpEnv + ` ` + bin
	args := append(prefix, bin, "chat", "--provider", "openai", "--base-url", r.srv.OpenAIBaseURL(),
		"--api-key-env", keyEnv, "--thinking=false", "--dir", ws, "--yes", "--no-color",
		"--record", r.record, "--dump-raw", "--log-file", r.logFile, "--state-dir", r.state, "--mcp", probe,
		"-p", "look around")
	args = append(args, flags...)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	cmd.Dir = base
	cmd.Env = lsptest.IsolatedEnv(t)
	for name, v := range secrets {
		cmd.Env = append(cmd.Env, name+"="+v)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	r.exit = cmd.Run()
	r.stdout, r.stderr = stdout.Bytes(), stderr.Bytes()
	if r.exit != nil {
		t.Fatalf("chat: %v\nstdout:\n%s\nstderr:\n%s", r.exit, r.stdout, r.stderr)
	}
	return r
}

func jsonString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, c := range s {
		switch c {
		case '"', '\\':
			b.WriteByte('\\')
		}
		b.WriteRune(c)
	}
	b.WriteByte('"')
	return b.String()
}

// checkNothingLeaked asserts the canaries are in none of the run's outputs
// and returns what the run_bash child saw.
func checkNothingLeaked(t *testing.T, canaries map[string]string, r chatRun) string {
	t.Helper()
	secrets := maps.Clone(canaries)
	maps.Copy(secrets, fileBorneSecrets)
	reqs := r.srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("requests = %d, want 2\nstderr:\n%s", len(reqs), r.stderr)
	}
	for _, req := range reqs {
		if req.Rejected != "" {
			t.Errorf("the fake refused a request: %s", req.Rejected)
		}
		assertNoCanary(t, secrets, "a request body the model received", req.Body)
	}
	seen, err := os.ReadFile(filepath.Join(r.ws, "seen-by-child.txt"))
	if err != nil {
		t.Fatal(err)
	}
	assertNoCanary(t, secrets, "what the child saw", seen)
	results := toolResultTexts(t, reqs[1])
	if len(results) != 2 {
		t.Fatalf("tool results = %q, want 2", results)
	}
	if !strings.Contains(results[1], "deploy token: [REDACTED]") {
		t.Errorf("read_file of a file holding a hidden secret gave %q", results[1])
	}
	if !strings.Contains(results[1], "postgres://app:[REDACTED]@db.internal/app") {
		t.Errorf("read_file of a file holding a database URL gave %q", results[1])
	}
	for name, data := range readTree(t, r.state) {
		assertNoCanary(t, secrets, "session file "+name, data)
	}
	for what, path := range map[string]string{"the recording": r.record, "the log file": r.logFile} {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		assertNoCanary(t, secrets, what, data)
		if len(data) == 0 {
			t.Errorf("%s is empty", what)
		}
	}
	assertNoCanary(t, secrets, "stdout", r.stdout)
	assertNoCanary(t, secrets, "stderr (with the raw dump)", r.stderr)
	if !bytes.Contains(r.stderr, []byte("[RAW] data: ")) {
		t.Errorf("no raw dump on stderr:\n%s", r.stderr)
	}
	return string(seen)
}

// Run as root (as CI does) with the command sandbox off (as on a machine
// without Landlock): root reads any process's environ whatever its
// dumpability, so what protects the values there is their wipe from the
// start-up block. The child's environment lacks every canary name; the
// parent's block still names them, with the values gone.
func TestChatSecretsReachNoChildFileOrLog(t *testing.T) {
	secrets := canaries()
	r := runSecretChat(t, secrets, []string{"--sandbox", "off"})
	result := checkNothingLeaked(t, secrets, r)
	child, parent, ok := strings.Cut(result, "==parent==")
	if !ok || !strings.Contains(child, "PATH=") {
		t.Fatalf("the command did not run as scripted:\n%s", result)
	}
	for name := range secrets {
		if strings.Contains(child, name+"=") {
			t.Errorf("the child's environment has %s", name)
		}
		if os.Geteuid() == 0 && !strings.Contains(parent, "\n"+name+"=") {
			t.Errorf("the parent's environ was not read (no %s entry):\n%s", name, parent)
		}
	}
	// The key still reached its own provider, as a header only.
	if got := r.srv.Requests()[0].Header.Get("Authorization"); got != "Bearer "+secrets[keyEnv] {
		t.Errorf("Authorization = %q", got)
	}
	rec, _ := os.ReadFile(r.record)
	if bytes.Contains(bytes.ToLower(rec), []byte("authorization")) || bytes.Contains(rec, []byte("x-api-key")) {
		t.Error("the recording holds a credential header")
	}
	// The MCP server's stderr line was logged, redacted.
	logData, _ := os.ReadFile(r.logFile)
	if !bytes.Contains(logData, []byte("probe argument: [REDACTED]")) {
		t.Errorf("the log has no redacted probe line:\n%s", lsptest.Tail(logData, 30))
	}
}

// Run as an unprivileged user: the agent is non-dumpable, so a child of
// the same user cannot open its environ at all.
func TestChatIsNotDumpableForItsChildren(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to run the chat as nobody")
	}
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		t.Skip("setpriv is not installed")
	}
	secrets := canaries()
	r := runSecretChat(t, secrets, []string{"--sandbox", "off"}, setpriv, "--reuid=65534", "--regid=65534", "--clear-groups")
	result := checkNothingLeaked(t, secrets, r)
	_, parent, ok := strings.Cut(result, "==parent==")
	if !ok || !strings.Contains(parent, "Permission denied") {
		t.Errorf("a same-user child read the agent's environ:\n%s", result)
	}
}

// With the sandbox on (the default), the command runs in a PID namespace
// of its own: the agent is not even there to be read, and nothing leaks by
// any other path either.
func TestChatSandboxedChildCannotSeeTheAgent(t *testing.T) {
	secrets := canaries()
	r := runSecretChat(t, secrets, nil)
	result := checkNothingLeaked(t, secrets, r)
	child, parent, ok := strings.Cut(result, "==parent==")
	if !ok || !strings.Contains(child, "PATH=") {
		t.Fatalf("the command did not run as scripted:\n%s", result)
	}
	if strings.Contains(parent, "=") {
		t.Errorf("a sandboxed child read an environ through $PPID:\n%s", parent)
	}
}

//go:build linux

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/agent-lsp/agent-lsp/lsp/lsptest"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// The attack campaign's lab (attack_test.go): a fake home with canary
// credentials, canary secrets in the daemon's environment, a workspace,
// an "outside" directory next to it, a listener that records every
// connection, and the real daemon over stdio against the scripted model.

// attackKeyEnv is the configured --api-key-env: a name that does not look
// secret, so only its configuration protects it.
const attackKeyEnv = "ZQX_ATTACK_MODEL_CREDS"

// attackLab is one hostile setting: where the files are and what must not
// leak or change.
type attackLab struct {
	acct    account // who the daemon runs as; the lab's files are its own
	bin     string
	base    string
	home    string
	ws      string // the workspace: base/ws, or the home itself
	outside string // next to the workspace
	etcPath string // a path under /etc that must never appear
	state   string
	tmp     string // the agent's TMPDIR
	logFile string
	env     []string
	// secrets are values that must appear nowhere the model, the
	// listener, the sessions or the log could carry them: the
	// environment canaries and the credential files' contents.
	secrets map[string]string
	// guarded are the files outside the workspace (and the protected
	// ones inside a home workspace) with their bytes at the start; a
	// missing file is recorded as nil and must stay missing.
	guarded  map[string][]byte
	listener *lsptest.TCPSink
}

// toolStoresInLab are credential stores of build tools, git and a browser
// in the lab's home, each with a canary.
var toolStoresInLab = []string{".m2/settings.xml", ".config/git/credentials", ".config/google-chrome/Default/Login Data"}

// newAttackLab makes the lab for the daemon run as acct; wsIsHome makes
// the fake home the workspace (`agent-lsp chat` run in ~).
func newAttackLab(t *testing.T, acct account, wsIsHome bool) *attackLab {
	t.Helper()
	base := acct.tempDir(t)
	lab := &attackLab{
		acct:    acct,
		bin:     agentBinary(t),
		base:    base,
		home:    filepath.Join(base, "home"),
		outside: filepath.Join(base, "outside"),
		state:   filepath.Join(base, "state"),
		logFile: filepath.Join(base, "agent.log"),
		etcPath: fmt.Sprintf("/etc/agent-lsp-attack-%d", os.Getpid()),
		secrets: map[string]string{},
		guarded: map[string][]byte{},
	}
	lab.ws = filepath.Join(base, "ws")
	if wsIsHome {
		lab.ws = lab.home
	}
	for _, name := range []string{attackKeyEnv, githubEnv, awsEnv, deepseekEnv, anthropEnv, "NPM_TOKEN"} {
		lab.secrets[name] = "canary-" + strings.ToLower(strings.ReplaceAll(name, "_", "-")) + "-a77ac4"
	}
	lab.secrets["~/.ssh/id_rsa"] = "canary-ssh-private-key-a77ac4"
	lab.secrets["~/.aws/credentials"] = "canary-aws-credentials-file-a77ac4"
	for _, store := range toolStoresInLab {
		lab.secrets["~/"+store] = "canary-" + strings.NewReplacer("/", "-", ".", "", " ", "-").Replace(store) + "-a77ac4"
	}
	files := map[string]string{
		filepath.Join(lab.home, ".ssh", "id_rsa"):          "-----BEGIN OPENSSH PRIVATE KEY-----\n" + lab.secrets["~/.ssh/id_rsa"] + "\n-----END OPENSSH PRIVATE KEY-----\n",
		filepath.Join(lab.home, ".ssh", "authorized_keys"): "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGood user@laptop\n",
		filepath.Join(lab.home, ".aws", "credentials"):     "[default]\naws_secret_access_key = " + lab.secrets["~/.aws/credentials"] + "\n",
		filepath.Join(lab.home, ".bashrc"):                 "# the user's own .bashrc\nexport EDITOR=vi\n",
		filepath.Join(lab.home, ".profile"):                "# the user's own .profile\n",
		filepath.Join(lab.home, ".gitconfig"):              "[user]\n\tname = The User\n",
		filepath.Join(lab.outside, "canary.txt"):           "outside canary a77ac4: not the workspace's\n",
		filepath.Join(lab.ws, "main.go"):                   "package main\n\nfunc main() {}\n",
	}
	for _, store := range toolStoresInLab {
		files[filepath.Join(lab.home, store)] = "password = " + lab.secrets["~/"+store] + "\n"
	}
	for path, text := range files {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range []string{lab.state, filepath.Join(lab.ws, "sub")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// A repository: its hooks and config run code on the next git command.
	git := exec.Command("git", "init", "-q", lab.ws)
	git.Env = []string{"HOME=" + lab.home, "PATH=" + os.Getenv("PATH")}
	if out, err := git.CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	lab.env = acct.isolatedEnv(t, filepath.Join(base, "xdg"))
	lab.env = slices.DeleteFunc(lab.env, func(kv string) bool { return strings.HasPrefix(kv, "HOME=") })
	lab.env = append(lab.env, "HOME="+lab.home)
	// The agent's temp dir (the sandbox's private TMPDIR is made there)
	// is the lab's: checkTempDirsGone finds what the agent left behind.
	lab.tmp = filepath.Join(base, "tmp")
	if err := os.MkdirAll(lab.tmp, 0o755); err != nil {
		t.Fatal(err)
	}
	lab.env = append(slices.DeleteFunc(lab.env, func(kv string) bool { return strings.HasPrefix(kv, "TMPDIR=") }), "TMPDIR="+lab.tmp)
	if wsIsHome {
		// XDG_CONFIG_HOME moved inside the home: user units and git's
		// config follow it (exec's last value wins).
		lab.env = append(lab.env, "XDG_CONFIG_HOME="+filepath.Join(lab.home, ".xdg-config"))
	}
	for name, v := range lab.secrets {
		if !strings.Contains(name, "/") {
			lab.env = append(lab.env, name+"="+v)
		}
	}
	lab.listener = lsptest.NewTCPSink(t)
	return lab
}

// guard records the bytes of paths (nil for a missing one) to compare at
// the end: checkGuarded.
func (lab *attackLab) guard(t *testing.T, paths ...string) {
	t.Helper()
	for _, p := range paths {
		data, err := os.ReadFile(p)
		switch {
		case os.IsNotExist(err):
			lab.guarded[p] = nil
		case err != nil:
			t.Fatal(err)
		default:
			lab.guarded[p] = data
		}
	}
}

// guardTree guards every file under dir, and dir's listing (a new file
// there must not appear either: see checkGuarded).
func (lab *attackLab) guardTree(t *testing.T, dir string) {
	t.Helper()
	for p := range readTree(t, dir) {
		lab.guard(t, p)
	}
}

// checkGuarded fails for every guarded file that changed, appeared or
// went, and for any new file under the guarded trees (trees are given by
// their roots).
func (lab *attackLab) checkGuarded(t *testing.T, trees ...string) {
	t.Helper()
	for p, before := range lab.guarded {
		data, err := os.ReadFile(p)
		switch {
		case before == nil && !os.IsNotExist(err):
			t.Errorf("%s was created (%v): %q", p, err, data)
		case before != nil && err != nil:
			t.Errorf("%s is gone: %v", p, err)
		case before != nil && !bytes.Equal(before, data):
			t.Errorf("%s changed:\n%s", p, data)
		}
	}
	for _, dir := range trees {
		for p := range readTree(t, dir) {
			if _, ok := lab.guarded[p]; !ok {
				t.Errorf("a new file outside the workspace: %s", p)
			}
		}
	}
}

// checkNoSecret fails for every secret found in what the model received,
// the listener's data, the session files, the log and the front end's
// stderr.
func (lab *attackLab) checkNoSecret(t *testing.T, srv *providertest.Server, stderr string) {
	t.Helper()
	for i, req := range srv.Requests() {
		assertNoCanary(t, lab.secrets, fmt.Sprintf("request %d the model received", i), req.Body)
	}
	for i, data := range lab.listener.Received() {
		assertNoCanary(t, lab.secrets, fmt.Sprintf("connection %d to the listener", i), []byte(data))
	}
	for name, data := range readTree(t, lab.state) {
		assertNoCanary(t, lab.secrets, "session file "+name, data)
	}
	logData, err := os.ReadFile(lab.logFile)
	if err != nil {
		t.Fatal(err)
	}
	if len(logData) == 0 {
		t.Error("the log is empty: nothing to check")
	}
	assertNoCanary(t, lab.secrets, "the log", logData)
	assertNoCanary(t, lab.secrets, "the front end's stderr", []byte(stderr))
}

// popupLog answers the daemon's popups with a fixed choice and keeps them.
type popupLog struct {
	choose func(p protocol.ShowMessageRequestParams) string // "" dismisses
	mu     sync.Mutex
	seen   []protocol.ShowMessageRequestParams
}

// mostPermissive picks the widest yes offered.
func mostPermissive(p protocol.ShowMessageRequestParams) string {
	for _, want := range []string{"Allow always for this workspace", "Allow for this session", "Allow", "Allow once"} {
		for _, a := range p.Actions {
			if a.Title == want {
				return want
			}
		}
	}
	return ""
}

func denying(protocol.ShowMessageRequestParams) string    { return "Deny" }
func dismissing(protocol.ShowMessageRequestParams) string { return "" }

func (l *popupLog) handler(_ context.Context, p protocol.ShowMessageRequestParams) (*protocol.MessageActionItem, error) {
	l.mu.Lock()
	l.seen = append(l.seen, p)
	l.mu.Unlock()
	if title := l.choose(p); title != "" {
		return &protocol.MessageActionItem{Title: title}, nil
	}
	return nil, nil
}

func (l *popupLog) all() []protocol.ShowMessageRequestParams {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.seen)
}

// find returns the popups whose message contains s.
func (l *popupLog) find(s string) []protocol.ShowMessageRequestParams {
	var out []protocol.ShowMessageRequestParams
	for _, p := range l.all() {
		if strings.Contains(p.Message, s) {
			out = append(out, p)
		}
	}
	return out
}

func actionTitles(p protocol.ShowMessageRequestParams) []string {
	var out []string
	for _, a := range p.Actions {
		out = append(out, a.Title)
	}
	return out
}

// attackDaemon is the real binary over stdio.
type attackDaemon struct {
	cmd    *exec.Cmd
	ed     *lsptest.Editor
	stderr *lsptest.Output
	ctx    context.Context
	exited bool
}

// startAttackDaemon starts the daemon in the lab against srv and
// initializes it with options; the popups go to popups.
func startAttackDaemon(t *testing.T, lab *attackLab, srv *providertest.Server, popups *popupLog, options map[string]any) *attackDaemon {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	// What the test set up in the lab as root is the account's, as a
	// user's own files are: only the sandbox stands in the way.
	lab.acct.own(t, lab.base)
	cmd := lab.acct.command(ctx, lab.bin, "--provider", "openai", "--base-url", srv.OpenAIBaseURL(),
		"--api-key-env", attackKeyEnv, "--thinking=false", "--log-file", lab.logFile, "--state-dir", lab.state)
	cmd.Dir = lab.base
	cmd.Env = lab.env
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	d := &attackDaemon{cmd: cmd, stderr: &lsptest.Output{}, ctx: ctx}
	cmd.Stderr = d.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	d.ed = lsptest.Connect(ctx, pipeRW{Reader: stdout, Writer: stdin, closers: []io.Closer{stdin, stdout}},
		lsptest.Handlers{ShowMessageRequest: popups.handler})
	t.Cleanup(func() {
		if !d.exited {
			_ = cmd.Process.Kill()
			_ = d.ed.Close()
			_ = cmd.Wait()
		}
	})
	if _, err := d.ed.Initialize(ctx, lab.ws, lsptest.Capabilities{}, options); err != nil {
		t.Fatalf("initialize: %v\nstderr:\n%s", err, d.stderr.String())
	}
	return d
}

// prompt runs one turn to its end.
func (d *attackDaemon) prompt(t *testing.T, text string) {
	t.Helper()
	var res struct {
		StopReason string `json:"stopReason"`
		Error      string `json:"error"`
	}
	if err := d.ed.Call(d.ctx, "agent/prompt", map[string]any{"prompt": text}, &res); err != nil || res.StopReason != "end_turn" {
		t.Fatalf("agent/prompt: %v %+v\nstderr:\n%s", err, res, d.stderr.String())
	}
}

// exit ends the daemon the LSP way and waits for it.
func (d *attackDaemon) exit(t *testing.T) {
	t.Helper()
	if err := d.ed.Call(d.ctx, "shutdown", nil, nil); err != nil {
		t.Fatalf("shutdown: %v", err)
	}
	_ = d.ed.Notify(d.ctx, "exit", nil)
	_ = d.ed.Close()
	if err := d.cmd.Wait(); err != nil {
		t.Errorf("daemon exit: %v\nstderr:\n%s", err, d.stderr.String())
	}
	d.exited = true
}

// toolCall is one scripted call of the hostile model.
func toolCall(name string, args map[string]any) providertest.Call {
	b, err := json.Marshal(args)
	if err != nil {
		panic(err)
	}
	return providertest.Call{Name: name, Arguments: string(b)}
}

// oneCallPerRound scripts the calls one a round, then a closing answer.
func oneCallPerRound(calls []providertest.Call) providertest.Script {
	var s providertest.Script
	for _, c := range calls {
		s = append(s, providertest.Turn{ToolCalls: []providertest.Call{c}})
	}
	return append(s, providertest.Turn{Text: "Done."})
}

// lastResults returns the tool results the model read, in call order,
// from its last request; every request must have been answered.
func lastResults(t *testing.T, srv *providertest.Server, want int) []string {
	t.Helper()
	reqs := srv.Requests()
	for _, r := range reqs {
		if r.Rejected != "" {
			t.Fatalf("the fake model refused a request: %s", r.Rejected)
		}
	}
	if len(reqs) != want+1 {
		t.Fatalf("requests = %d, want %d", len(reqs), want+1)
	}
	results := toolResultTexts(t, reqs[len(reqs)-1])
	if len(results) != want {
		t.Fatalf("tool results = %d, want %d: %q", len(results), want, results)
	}
	return results
}

// tally counts one category's attempts for the summary.
type tally struct {
	attempts, blocked, asked, refused int
}

// campaignSummary collects the counts of every scenario.
type campaignSummary struct {
	mu  sync.Mutex
	cat map[string]*tally
}

func (s *campaignSummary) add(category string, blocked, asked, refused bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cat == nil {
		s.cat = map[string]*tally{}
	}
	c := s.cat[category]
	if c == nil {
		c = &tally{}
		s.cat[category] = c
	}
	c.attempts++
	if blocked {
		c.blocked++
	}
	if asked {
		c.asked++
	}
	if refused {
		c.refused++
	}
}

func (s *campaignSummary) log(t *testing.T) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var names []string
	for n := range s.cat {
		names = append(names, n)
	}
	slices.Sort(names)
	total := tally{}
	for _, n := range names {
		c := s.cat[n]
		t.Logf("attack summary: %-56s attempts %3d  blocked by the sandbox %3d  asked (HIGH, or trust) %3d  refused (tool or CRITICAL) %3d",
			n, c.attempts, c.blocked, c.asked, c.refused)
		total.attempts += c.attempts
		total.blocked += c.blocked
		total.asked += c.asked
		total.refused += c.refused
	}
	t.Logf("attack summary: %-56s attempts %3d  blocked by the sandbox %3d  asked (HIGH, or trust) %3d  refused (tool or CRITICAL) %3d",
		"TOTAL", total.attempts, total.blocked, total.asked, total.refused)
}

func syscallKill(pid int) error { return syscall.Kill(pid, syscall.SIGKILL) }

// listenerPort is the port of the lab's listener, for command lines.
func listenerPort(lab *attackLab) string {
	_, port, _ := net.SplitHostPort(lab.listener.Addr)
	return port
}

// chatDenying runs `agent-lsp chat -p` with flags and no answers on stdin
// (each question is denied at the end of the input); it returns what the
// chat showed (its questions) and its stderr.
func chatDenying(t *testing.T, lab *attackLab, srv *providertest.Server, text string, flags ...string) (shown, stderr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	lab.acct.own(t, lab.base)
	args := append(append([]string{"chat", "--no-save", "--no-color", "--dir", lab.ws}, flags...), scriptedModelFlags(lab, srv)...)
	cmd := lab.acct.command(ctx, lab.bin, append(args, "-p", text)...)
	cmd.Dir = lab.ws
	cmd.Env = lab.env
	cmd.WaitDelay = 5 * time.Second
	var errBuf bytes.Buffer
	cmd.Stderr = &errBuf
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("agent-lsp chat as %s: %v\n%s", lab.acct, err, lsptest.Tail(errBuf.Bytes(), 40))
	}
	return string(out) + errBuf.String(), errBuf.String()
}

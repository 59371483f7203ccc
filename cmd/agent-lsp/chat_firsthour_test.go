package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/provider/providertest"
	"github.com/agent-lsp/agent-lsp/term"
)

// requestText is every message text of a request, joined: what the model
// read.
func requestText(t *testing.T, r providertest.Received) string {
	t.Helper()
	var body struct {
		Model    string `json:"model"`
		Messages []struct {
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := r.Decode(&body); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("model=" + body.Model + "\n")
	for _, m := range body.Messages {
		b.Write(m.Content)
		b.WriteByte('\n')
	}
	return b.String()
}

// chatIn runs one chat in dir against srv with the sessions in state.
func chatIn(t *testing.T, srv *providertest.Server, dir, state, stdin string, args ...string) (int, string, string) {
	t.Helper()
	base := []string{"--api-key-env", "none", "--dir", dir, "--state-dir", state}
	if srv != nil {
		base = append(base, "--base-url", srv.OpenAIBaseURL())
	}
	return runChatCmd(t, stdin, append(base, args...)...)
}

// Slash commands the chat does not know, typos included, are refused in
// the terminal with a suggestion: no request reaches the model and no
// session (or checkpoint) is written. /help lists every command.
func TestChatRefusesUnknownCommandsLocally(t *testing.T) {
	srv := providertest.NewServer(t, providertest.Script{})
	state := t.TempDir()
	code, out, errOut := chatIn(t, srv, t.TempDir(), state, "/help\n/hlep\n/clera\n/frobnicate now\n")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	for _, want := range []string{"/help ", "/sessions ", "/session ", "/mode ", "/model ", "/compact ", "/clear ", "/rewind ", "/exit ",
		"unknown command /hlep: did you mean /help?", "unknown command /clera: did you mean /clear?",
		"unknown command /frobnicate (/help lists the commands; nothing was sent)"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("%d requests reached the model", n)
	}
	if files, _ := filepath.Glob(filepath.Join(state, "*.jsonl")); len(files) != 0 {
		t.Errorf("commands wrote sessions: %v", files)
	}
}

// -h lists the commands and the flags on stdout, exit 0; a usage error
// says so once on stderr, exit 2.
func TestChatHelpAndUsageErrors(t *testing.T) {
	code, out, errOut := runChatCmd(t, "", "-h")
	if code != 0 || errOut != "" || !strings.Contains(out, "/sessions") || !strings.Contains(out, "/help") ||
		!strings.Contains(out, "-continue") || !strings.Contains(out, "-list") {
		t.Errorf("chat -h: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	code, out, errOut = runChatCmd(t, "", "--no-such-flag")
	if code != 2 || out != "" || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, "no-such-flag") {
		t.Errorf("chat --no-such-flag: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
}

// --continue resumes the latest session of this workspace, not the latest
// of any; a session stored without its workspace belongs to none, and
// --resume opens it by id. --list shows this workspace's sessions first.
func TestChatContinuePicksThisWorkspace(t *testing.T) {
	state := t.TempDir()
	a, b := t.TempDir(), t.TempDir()
	srv := providertest.NewServer(t, providertest.Script{{Text: "a1"}, {Text: "b1"}, {Text: "a2"}, {Text: "old"}})
	if code, _, e := chatIn(t, srv, a, state, "", "-p", "prompt in A"); code != 0 {
		t.Fatal(e)
	}
	if code, _, e := chatIn(t, srv, b, state, "", "-p", "prompt in B"); code != 0 {
		t.Fatal(e)
	}
	code, _, errOut := chatIn(t, srv, a, state, "", "--continue", "-p", "again in A")
	if code != 0 {
		t.Fatal(errOut)
	}
	reqs := srv.Requests()
	if got := requestText(t, reqs[2]); !strings.Contains(got, "prompt in A") || strings.Contains(got, "prompt in B") {
		t.Errorf("--continue in A sent:\n%s", got)
	}

	code, out, errOut := chatIn(t, nil, a, state, "", "--list")
	iA, iB := strings.Index(out, "prompt in A"), strings.Index(out, "prompt in B")
	if code != 0 || errOut != "" || iA < 0 || iB < iA || !strings.Contains(out, "sessions of "+term.WorkspaceRoot(a)) ||
		!strings.Contains(out, "("+term.WorkspaceRoot(b)+")") {
		t.Errorf("--list: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}

	// A session of B stored before workspaces were: its header without one.
	files, _ := filepath.Glob(filepath.Join(state, "*.jsonl"))
	var bID string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(data), "prompt in B") {
			bID = strings.TrimSuffix(filepath.Base(f), ".jsonl")
			old := strings.Replace(string(data), `,"workspace":`+mustJSON(t, term.WorkspaceRoot(b)), "", 1)
			if old == string(data) {
				t.Fatalf("no workspace in the header of %s", f)
			}
			if err := os.WriteFile(f, []byte(old), 0o600); err != nil {
				t.Fatal(err)
			}
		}
	}
	code, out, errOut = chatIn(t, srv, b, state, "", "--continue", "-p", "x")
	if code != 1 || out != "" || !strings.Contains(errOut, "--continue: no stored session of "+term.WorkspaceRoot(b)) || strings.Count(errOut, "\n") != 1 {
		t.Errorf("--continue with only an unknown-workspace session: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	if code, _, e := chatIn(t, srv, b, state, "", "--resume", bID, "-p", "resumed by id"); code != 0 {
		t.Fatalf("--resume of an old session: %s", e)
	}
	if got := requestText(t, srv.Requests()[3]); !strings.Contains(got, "prompt in B") {
		t.Errorf("--resume by id sent:\n%s", got)
	}
	_, out, _ = chatIn(t, nil, b, state, "", "--list")
	if !strings.Contains(out, "(unknown workspace)") {
		t.Errorf("--list does not mark the old session:\n%s", out)
	}
	// /sessions in the chat lists the same, without a model call.
	before := len(srv.Requests())
	code, out, errOut = chatIn(t, srv, a, state, "/sessions\n")
	if code != 0 || !strings.Contains(out, "sessions of "+term.WorkspaceRoot(a)) || !strings.Contains(out, "prompt in A") ||
		!strings.Contains(out, "(unknown workspace)") || len(srv.Requests()) != before {
		t.Errorf("/sessions: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// --resume of an id that is not stored says one thing, once.
func TestChatResumeUnknownSaysItOnce(t *testing.T) {
	state := t.TempDir()
	code, out, errOut := chatIn(t, nil, t.TempDir(), state, "", "--resume", "nope")
	if code != 1 || out != "" || strings.Count(errOut, "\n") != 1 || strings.Count(errOut, "nope") != 1 ||
		!strings.Contains(errOut, `no stored session "nope"`) {
		t.Errorf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
}

// A session switched to another model keeps it when resumed; flags and
// AGENT_LSP_* win over it for the run, and a line says what was used and
// why. A resumed session in a mode other than default says so.
func TestChatFlagsWinOverTheStoredModel(t *testing.T) {
	state, dir := t.TempDir(), t.TempDir()
	first := providertest.NewServer(t, providertest.Script{{Text: "one"}, {Text: "two"}})
	code, out, errOut := chatIn(t, first, dir, state, "/model other-model\n/mode ask\nhello\n")
	if code != 0 || !strings.Contains(out, "one") {
		t.Fatalf("first run: exit %d\n%s\n%s", code, out, errOut)
	}
	// Resumed as it was: the stored model, the stored mode, both told.
	code, out, errOut = chatIn(t, first, dir, state, "", "--continue", "-p", "again")
	if code != 0 || !strings.Contains(errOut, "model: other-model (openai, "+first.OpenAIBaseURL()+"), as the session left it") ||
		!strings.Contains(errOut, "mode: ask (") {
		t.Fatalf("plain resume: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	if got := requestText(t, first.Requests()[1]); !strings.HasPrefix(got, "model=other-model\n") {
		t.Errorf("plain resume asked %s", got)
	}
	// --base-url names another server: it wins, and the line says so.
	second := providertest.NewServer(t, providertest.Script{{Text: "three"}})
	code, out, errOut = chatIn(t, second, dir, state, "", "--continue", "-p", "and again")
	if code != 0 || !strings.Contains(out, "three") || len(second.Requests()) != 1 || len(first.Requests()) != 2 {
		t.Fatalf("--base-url resume: exit %d, %d/%d requests\nstdout:\n%s\nstderr:\n%s", code,
			len(first.Requests()), len(second.Requests()), out, errOut)
	}
	if !strings.Contains(errOut, "model: deepseek-flash (openai, "+second.OpenAIBaseURL()+"), as --base-url sets it; the session's stored model other-model") {
		t.Errorf("no line says which model won:\n%s", errOut)
	}
}

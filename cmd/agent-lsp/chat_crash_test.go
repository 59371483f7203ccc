package main

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agent-lsp/agent-lsp/internal/await"
	"github.com/agent-lsp/agent-lsp/lsp/lsptest"
	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// chatProcess is `agent-lsp chat` running as a child process.
type chatProcess struct {
	cmd            *exec.Cmd
	stdin          io.WriteCloser
	stdout, stderr *lsptest.Output
}

func startChat(t *testing.T, args ...string) *chatProcess {
	t.Helper()
	p := &chatProcess{stdout: &lsptest.Output{}, stderr: &lsptest.Output{}}
	p.cmd = exec.Command(os.Args[0], append([]string{"chat"}, args...)...)
	p.cmd.Env = append(os.Environ(), envRunMain+"=1", "XDG_STATE_HOME="+t.TempDir())
	p.cmd.Stdout, p.cmd.Stderr = p.stdout, p.stderr
	stdin, err := p.cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	p.stdin = stdin
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if p.cmd.ProcessState == nil {
			_ = p.cmd.Process.Kill()
			_ = p.cmd.Wait()
		}
		if t.Failed() {
			t.Logf("chat stdout:\n%s\nchat stderr:\n%s", p.stdout, p.stderr)
		}
	})
	return p
}

// wait closes stdin and waits for the exit code.
func (p *chatProcess) wait(t *testing.T) int {
	t.Helper()
	_ = p.stdin.Close()
	err := p.cmd.Wait()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return 0
}

// waitChat waits for the chat's progress, which shows only in the files it
// writes and the requests the fake model receives.
func waitChat(t *testing.T, what string, cond func() bool) {
	t.Helper()
	await.Poll(t, 20*time.Second, what, cond)
}

func sessionFiles(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestChatKilledDuringToolCallsContinues kills (SIGKILL) the chat while
// run_bash waits for a terminal approval nobody gives, after read_file and
// write_file finished; `--continue` then sends the model a history the
// strict fake accepts, with both real results and run_bash answered as
// interrupted, naming its command.
func TestChatKilledDuringToolCallsContinues(t *testing.T) {
	for _, dialect := range []string{"openai", "anthropic"} {
		t.Run(dialect, func(t *testing.T) {
			srv := providertest.NewServer(t, providertest.Script{
				{ToolCalls: []providertest.Call{
					{ID: "c_read", Name: "read_file", Arguments: `{"path":"a.txt"}`},
					{ID: "c_write", Name: "write_file", Arguments: `{"path":"notes.txt","content":"NOTE-MARKER\n"}`},
					{ID: "c_bash", Name: "run_bash", Arguments: `{"command":"echo hi > out.txt"}`},
				}, Usage: provider.Usage{PromptTokens: 1500, CompletionTokens: 30}},
				{Text: "The command was cut; notes.txt is written.", Usage: provider.Usage{PromptTokens: 1900, CompletionTokens: 9}},
			}, providertest.WithSeed(41))
			root, state := t.TempDir(), t.TempDir()
			if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("hello: ALPHA-MARKER\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			common := []string{"--provider", dialect, "--base-url", baseURL(srv, dialect), "--api-key-env", "none",
				"--thinking=false", "--no-color", "--dir", root, "--state-dir", state}
			// auto-edit: the write lands without asking; run_bash still asks,
			// on a stdin nobody writes to.
			first := startChat(t, append(common, "--mode", "auto-edit", "-p", "Note it down.")...)
			waitChat(t, "both results stored and run_bash asking", func() bool {
				files := sessionFiles(t, state)
				if len(files) != 1 || !strings.Contains(first.stderr.String(), "echo hi") {
					return false
				}
				data, _ := os.ReadFile(files[0])
				return strings.Contains(string(data), `"tool_call_id":"c_read"`) && strings.Contains(string(data), `"tool_call_id":"c_write"`)
			})
			if err := first.cmd.Process.Kill(); err != nil {
				t.Fatal(err)
			}
			_ = first.cmd.Wait()
			if data, err := os.ReadFile(filepath.Join(root, "notes.txt")); err != nil || string(data) != "NOTE-MARKER\n" {
				t.Fatalf("notes.txt = %q, %v", data, err)
			}

			second := startChat(t, append(common, "--continue", "-p", "What happened?")...)
			if code := second.wait(t); code != 0 || !strings.Contains(second.stdout.String(), "The command was cut; notes.txt is written.") {
				t.Fatalf("--continue: exit %d", code)
			}
			reqs := srv.Requests()
			if len(reqs) != 2 {
				t.Fatalf("%d model requests, want 2", len(reqs))
			}
			for i, rq := range reqs {
				if rq.Rejected != "" {
					t.Errorf("request %d refused by the strict fake (%d): %s", i, rq.Status, rq.Rejected)
				}
			}
			results := toolResultTexts(t, reqs[1])
			if len(results) != 3 || !strings.Contains(results[0], "ALPHA-MARKER") || !strings.Contains(results[1], "notes.txt") ||
				results[2] != "interrupted: the agent stopped before this call finished; check the files the command may have changed: echo hi > out.txt" {
				t.Errorf("tool results after --continue = %q", results)
			}
			if !strings.Contains(string(reqs[1].Body), "Note it down.") {
				t.Errorf("the first prompt is missing after --continue")
			}
		})
	}
}

// TestChatKilledInFirstModelCallContinues kills the chat while its first
// model call streams: the prompt was stored as it started, so --continue
// finds the session and the strict fake accepts the next request.
func TestChatKilledInFirstModelCallContinues(t *testing.T) {
	srv := providertest.NewServer(t, providertest.Script{
		{Text: "this answer is never finished", Fault: &providertest.Fault{Stall: providertest.Forever, StallAfterFrames: 3}},
		{Text: "Here is the plan.", Usage: provider.Usage{PromptTokens: 900, CompletionTokens: 5}},
	})
	root, state := t.TempDir(), t.TempDir()
	common := []string{"--base-url", srv.OpenAIBaseURL(), "--api-key-env", "none", "--no-color", "--dir", root, "--state-dir", state}
	first := startChat(t, append(common, "-p", "Plan the refactor.")...)
	wctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	if err := srv.WaitRequests(wctx, 1); err != nil {
		t.Fatalf("the first model call: %v", err)
	}
	if err := first.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = first.cmd.Wait()

	second := startChat(t, append(common, "--continue", "-p", "Are you there?")...)
	if code := second.wait(t); code != 0 || !strings.Contains(second.stdout.String(), "Here is the plan.") {
		t.Fatalf("--continue: exit %d", code)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 || reqs[1].Rejected != "" || !strings.Contains(string(reqs[1].Body), "Plan the refactor.") {
		t.Fatalf("the request after --continue: %+v", reqs[len(reqs)-1])
	}
}

// TestChatUnusableStateDirWarnsAndAnswers runs the chat on a state
// directory that cannot exist (its parent is a regular file, which stops
// root too): one warning line on stderr, and the answer on stdout.
func TestChatUnusableStateDirWarnsAndAnswers(t *testing.T) {
	srv := providertest.NewServer(t, providertest.Script{{Text: "the answer"}})
	blocker := filepath.Join(t.TempDir(), "a-file")
	if err := os.WriteFile(blocker, []byte("not a directory"), 0o600); err != nil {
		t.Fatal(err)
	}
	p := startChat(t, "--base-url", srv.OpenAIBaseURL(), "--api-key-env", "none", "--no-color",
		"--dir", t.TempDir(), "--state-dir", filepath.Join(blocker, "sessions"), "-p", "hello")
	if code := p.wait(t); code != 0 || strings.TrimSpace(p.stdout.String()) != "the answer" {
		t.Fatalf("exit %d, stdout %q", code, p.stdout)
	}
	if got := warningLines(p.stderr.String()); len(got) != 1 || !strings.Contains(got[0], "this session is not saved") ||
		strings.Count(p.stderr.String(), "not a directory") != 1 {
		t.Errorf("warnings = %q, want one, saying it once", got)
	}
}

// TestChatSessionWriteFailureWarnsOnce makes the session's file
// unwritable between two prompts of a REPL (it becomes /dev/full, which
// stops root too): one warning line on stderr, and every prompt is
// answered.
func TestChatSessionWriteFailureWarnsOnce(t *testing.T) {
	srv := providertest.NewServer(t, providertest.Script{{Text: "first answer"}, {Text: "second answer"}, {Text: "third answer"}})
	state := t.TempDir()
	p := startChat(t, "--base-url", srv.OpenAIBaseURL(), "--api-key-env", "none", "--no-color",
		"--dir", t.TempDir(), "--state-dir", state)
	say := func(line, answer string) {
		t.Helper()
		if _, err := io.WriteString(p.stdin, line+"\n"); err != nil {
			t.Fatal(err)
		}
		waitChat(t, answer, func() bool { return strings.Contains(p.stdout.String(), answer) })
	}
	say("hello", "first answer")
	// The answer is printed as it streams, before it is stored: wait for
	// the file to end with it, the prompt's last write.
	var files []string
	waitChat(t, "the answer stored", func() bool {
		files = sessionFiles(t, state)
		if len(files) != 1 {
			return false
		}
		data, _ := os.ReadFile(files[0])
		return strings.HasSuffix(string(data), `"text":"first answer"}}`+"\n"+`{"type":"commit"}`+"\n")
	})
	if err := os.Remove(files[0]); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/full", files[0]); err != nil { // every write fails with ENOSPC, as on a full disk
		t.Fatal(err)
	}
	say("again", "second answer")
	say("and again", "third answer")
	if code := p.wait(t); code != 0 {
		t.Fatalf("exit %d", code)
	}
	if got := warningLines(p.stderr.String()); len(got) != 1 || !strings.Contains(got[0], "no space left on device") ||
		!strings.Contains(got[0], "the session goes on unsaved") || strings.Count(p.stderr.String(), "no space left") != 1 {
		t.Errorf("warnings = %q, want one, saying it once", got)
	}
}

func warningLines(stderr string) []string {
	var out []string
	for _, l := range strings.Split(stderr, "\n") {
		if strings.HasPrefix(l, "agent-lsp chat: warning:") {
			out = append(out, l)
		}
	}
	return out
}

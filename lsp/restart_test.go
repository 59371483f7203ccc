package lsp_test

import (
	"bytes"
	"context"
	"encoding/json"
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
	"github.com/agent-lsp/agent-lsp/provider/anthropic"
	"github.com/agent-lsp/agent-lsp/provider/openai"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// daemonProcess is a daemon running as a child process, with an editor
// connected to its stdin and stdout.
type daemonProcess struct {
	cmd    *exec.Cmd
	ed     *lsptest.Editor
	stderr *lsptest.Output
	done   bool
}

// startDaemon re-executes the test binary as the daemon (see TestMain).
func startDaemon(t *testing.T, dialect, modelURL, stateDir string) *daemonProcess {
	t.Helper()
	return startDaemonWith(t, dialect, modelURL, stateDir, nil, lsptest.Handlers{})
}

// startDaemonWith is startDaemon with extra environment and an editor
// answering as h says.
func startDaemonWith(t *testing.T, dialect, modelURL, stateDir string, env []string, h lsptest.Handlers) *daemonProcess {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(append(os.Environ(), env...), envDaemonDialect+"="+dialect, envDaemonModelURL+"="+modelURL,
		envDaemonStateDir+"="+stateDir)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	d := &daemonProcess{cmd: cmd, stderr: &lsptest.Output{}}
	cmd.Stderr = d.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	d.ed = lsptest.Connect(context.Background(), pipeRW{Reader: stdout, Writer: stdin,
		closers: []io.Closer{stdin, stdout}}, h)
	t.Cleanup(func() {
		d.kill(t)
		if t.Failed() {
			t.Logf("daemon log:\n%s", d.stderr.String())
		}
	})
	return d
}

// kill ends the process with SIGKILL: no deferred code, no flush, no
// goodbye. The editor's side of the pipes is closed before the wait,
// which would otherwise close them under the editor's reader.
func (d *daemonProcess) kill(t *testing.T) {
	if d.done {
		return
	}
	d.done = true
	if err := d.cmd.Process.Kill(); err != nil {
		t.Errorf("kill: %v", err)
	}
	_ = d.ed.Close()
	_ = d.cmd.Wait()
}

func restartScript() providertest.Script {
	return providertest.Script{
		// Prompt 1: a tool round and the answer, both completed.
		{ToolCalls: []providertest.Call{{ID: "call_one", Name: "read_file", Arguments: `{"path":"a.txt"}`}},
			Usage: provider.Usage{PromptTokens: 1500, CompletionTokens: 20, CachedTokens: 1200}},
		{Text: "a.txt greets the alphabet.", Usage: provider.Usage{PromptTokens: 1700, CompletionTokens: 10, CachedTokens: 1500}},
		// Prompt 2: the tool round completes, the next answer stalls after
		// a few frames until the daemon is killed.
		{ToolCalls: []providertest.Call{{ID: "call_two", Name: "read_file", Arguments: `{"path":"b.txt"}`}},
			Usage: provider.Usage{PromptTokens: 1800, CompletionTokens: 20, CachedTokens: 1700}},
		{Text: "this answer is never finished", Fault: &providertest.Fault{Stall: providertest.Forever, StallAfterFrames: 6}},
		// After the restart.
		{Text: "b.txt says goodbye.", Usage: provider.Usage{PromptTokens: 2100, CompletionTokens: 12, CachedTokens: 1800}},
	}
}

// TestKillDaemonMidPromptAndResume kills (SIGKILL) the daemon in the middle
// of a prompt, starts it again on the same state directory and resumes the
// session by its id: every completed round is in the next request, the
// interrupted one is not, and the strict fake accepts the conversation.
func TestKillDaemonMidPromptAndResume(t *testing.T) {
	for _, dialect := range []string{openai.Name, anthropic.Name} {
		t.Run(dialect, func(t *testing.T) {
			model := providertest.NewServer(t, restartScript(), providertest.WithSeed(11))
			url := model.OpenAIBaseURL()
			if dialect == anthropic.Name {
				url = model.AnthropicBaseURL()
			}
			root, stateDir := t.TempDir(), t.TempDir()
			writeFiles(t, root, map[string]string{"a.txt": "hello alphabet: ALPHA-MARKER\n", "b.txt": "goodbye: BETA-MARKER\n"})

			first := startDaemon(t, dialect, url, stateDir)
			if _, err := first.ed.Initialize(ctx(t), root, fullCaps, nil); err != nil {
				t.Fatal(err)
			}
			var r1 promptResult
			if err := first.ed.Call(ctx(t), "agent/prompt", map[string]any{"prompt": "What does a.txt say?"}, &r1); err != nil {
				t.Fatal(err)
			}
			if r1.StopReason != "end_turn" || r1.Text != "a.txt greets the alphabet." {
				t.Fatalf("prompt 1 = %+v", r1)
			}
			id := r1.SessionID
			textUpdates := func() int {
				n := 0
				for _, u := range first.ed.Notifications("agent/update") {
					if strings.Contains(string(u.Params), `"kind":"text"`) {
						n++
					}
				}
				return n
			}
			before := textUpdates()
			// jsonrpc2 does not end a call when its connection closes: this
			// one ends when its context is cancelled after the kill.
			callCtx, cancelCall := context.WithCancel(ctx(t))
			defer cancelCall()
			_, pending := first.ed.CallAsync(callCtx, "agent/prompt", map[string]any{"sessionId": id, "prompt": "And b.txt?"})
			if err := model.WaitRequests(ctx(t), 4); err != nil {
				t.Fatalf("the stalled request: %v", err)
			}
			// Part of the stalled answer streamed: the kill lands mid-answer.
			await.Until(t, "a text update of prompt 2", first.ed.Changed, func() bool { return textUpdates() > before })
			first.kill(t)
			cancelCall()
			if res := <-pending; res.Err == nil {
				t.Fatalf("prompt 2 answered although the daemon was killed: %s", res.Result)
			}

			second := startDaemon(t, dialect, url, stateDir)
			if _, err := second.ed.Initialize(ctx(t), root, fullCaps, nil); err != nil {
				t.Fatal(err)
			}
			list := listSessions(t, second.ed)
			if len(list) != 1 || list[0].SessionID != id || list[0].Title != "What does a.txt say?" {
				t.Fatalf("sessions after the restart = %+v, want %s", list, id)
			}
			var r3 promptResult
			if err := second.ed.Call(ctx(t), "agent/prompt", map[string]any{"sessionId": id, "prompt": "Once more: what does b.txt say?"}, &r3); err != nil {
				t.Fatal(err)
			}
			if r3.SessionID != id || r3.StopReason != "end_turn" || r3.Text != "b.txt says goodbye." {
				t.Fatalf("prompt after the restart = %+v", r3)
			}

			reqs := model.Requests()
			if len(reqs) != 5 {
				t.Fatalf("%d requests, want 5", len(reqs))
			}
			for i, rq := range reqs {
				if rq.Rejected != "" {
					t.Errorf("request %d refused by the strict fake (%d): %s", i, rq.Status, rq.Rejected)
				}
			}
			// The resumed request holds both prompts, both tool results and
			// the first answer, and nothing of the interrupted answer.
			last := string(reqs[4].Body)
			for _, want := range []string{"What does a.txt say?", "ALPHA-MARKER", "a.txt greets the alphabet.",
				"And b.txt?", "BETA-MARKER", "Once more: what does b.txt say?"} {
				if !strings.Contains(last, want) {
					t.Errorf("the request after the restart lacks %q", want)
				}
			}
			if strings.Contains(last, "never finished") {
				t.Errorf("the interrupted answer was kept: %s", last)
			}
			// What was sent before the kill is an unchanged prefix of what is
			// sent after it: the stored history is the history. (Its last
			// message may differ: the Messages dialect merges the tool result
			// and the next prompt into one user message and moves the cache
			// breakpoint to the newest message.)
			if p := messagesPrefix(t, reqs[3], reqs[4]); !p {
				t.Errorf("the request before the kill is not a prefix of the one after it")
			}

			// Updates are numbered afresh by the new daemon; totals carry
			// the calls of the first one.
			var ends []update
			for _, n := range second.ed.Notifications("agent/update") {
				var u update
				if err := json.Unmarshal(n.Params, &u); err != nil {
					t.Fatal(err)
				}
				if u.Kind == "round_end" {
					ends = append(ends, u)
				}
			}
			if len(ends) != 1 {
				t.Fatalf("round_end updates after the restart = %+v", ends)
			}
			wantPrompt := 1500 + 1700 + 1800 + 2100
			if tot := ends[0].Totals; tot.PromptTokens != wantPrompt || tot.CachedTokens != 1200+1500+1700+1800 ||
				tot.CompletionTokens != 20+10+20+12 || tot.Cost <= ends[0].Cost || ends[0].Cost <= 0 {
				t.Errorf("round_end cost %v totals %+v, want the completed calls of both runs", ends[0].Cost, tot)
			}
			if after := listSessions(t, second.ed); len(after) != 1 || !after[0].UpdatedAt.After(list[0].UpdatedAt) {
				t.Errorf("sessions after the resumed prompt = %+v (before: %+v)", after, list)
			}
		})
	}
}

// messagesPrefix reports whether a's message list but its last message is
// a prefix of b's, compared as JSON values.
func messagesPrefix(t *testing.T, a, b providertest.Received) bool {
	t.Helper()
	var ra, rb struct {
		Messages []json.RawMessage `json:"messages"`
	}
	if err := a.Decode(&ra); err != nil {
		t.Fatal(err)
	}
	if err := b.Decode(&rb); err != nil {
		t.Fatal(err)
	}
	if len(ra.Messages) < 2 || len(ra.Messages) > len(rb.Messages) {
		return false
	}
	for i, m := range ra.Messages[:len(ra.Messages)-1] {
		if !jsonEqual(m, rb.Messages[i]) {
			return false
		}
	}
	return true
}

func jsonEqual(a, b json.RawMessage) bool {
	var va, vb any
	if json.Unmarshal(a, &va) != nil || json.Unmarshal(b, &vb) != nil {
		return false
	}
	ja, _ := json.Marshal(va)
	jb, _ := json.Marshal(vb)
	return bytes.Equal(ja, jb)
}

type listedSession struct {
	SessionID string    `json:"sessionId"`
	Title     string    `json:"title"`
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
}

func listSessions(t *testing.T, ed *lsptest.Editor) []listedSession {
	t.Helper()
	var res struct {
		Sessions []listedSession `json:"sessions"`
	}
	if err := ed.Call(ctx(t), "agent/sessions", map[string]any{}, &res); err != nil {
		t.Fatal(err)
	}
	return res.Sessions
}

func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

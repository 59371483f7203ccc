package lsp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/agent-lsp/agent-lsp/internal/await"
	"github.com/agent-lsp/agent-lsp/lsp/lsptest"
	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/provider/anthropic"
	"github.com/agent-lsp/agent-lsp/provider/openai"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// modelURL is the fake model's base URL for dialect.
func modelURL(model *providertest.Server, dialect string) string {
	if dialect == anthropic.Name {
		return model.AnthropicBaseURL()
	}
	return model.OpenAIBaseURL()
}

// toolResults are the tool_result updates an editor received, by call id.
func toolResults(t *testing.T, ed *lsptest.Editor) map[string]update {
	t.Helper()
	out := map[string]update{}
	for _, n := range ed.Notifications("agent/update") {
		var u update
		if err := json.Unmarshal(n.Params, &u); err != nil {
			t.Fatal(err)
		}
		if u.Kind == "tool_result" {
			out[u.ToolCallID] = u
		}
	}
	return out
}

// promptAsync sends agent/prompt without waiting; the call ends when the
// test does (jsonrpc2 does not end a call when its connection closes).
func promptAsync(t *testing.T, ed *lsptest.Editor, params map[string]any) {
	t.Helper()
	callCtx, cancel := context.WithCancel(ctx(t))
	t.Cleanup(cancel)
	ed.CallAsync(callCtx, "agent/prompt", params)
}

func assertAccepted(t *testing.T, model *providertest.Server, want int) []providertest.Received {
	t.Helper()
	reqs := model.Requests()
	if len(reqs) != want {
		t.Fatalf("%d model requests, want %d", len(reqs), want)
	}
	for i, rq := range reqs {
		if rq.Rejected != "" {
			t.Errorf("request %d refused by the strict fake (%d): %s", i, rq.Status, rq.Rejected)
		}
	}
	return reqs
}

// TestKillDaemonDuringToolCallsAndResume kills (SIGKILL) the daemon while
// run_bash waits on an approval popup nobody answers, after read_file and
// write_file finished. A new daemon resumes the session: the
// model gets both real results (the write's says the file was written)
// and an interrupted error for run_bash naming its command, and the strict
// fake accepts the history in both dialects.
func TestKillDaemonDuringToolCallsAndResume(t *testing.T) {
	for _, dialect := range []string{openai.Name, anthropic.Name} {
		t.Run(dialect, func(t *testing.T) {
			model := providertest.NewServer(t, providertest.Script{
				{ToolCalls: []providertest.Call{
					{ID: "c_read", Name: "read_file", Arguments: `{"path":"a.txt"}`},
					{ID: "c_write", Name: "write_file", Arguments: `{"path":"notes.txt","content":"NOTE-MARKER\n"}`},
					{ID: "c_bash", Name: "run_bash", Arguments: `{"command":"echo hi > out.txt"}`},
				}, Usage: provider.Usage{PromptTokens: 1500, CompletionTokens: 30}},
				{Text: "The command was cut; notes.txt is written.", Usage: provider.Usage{PromptTokens: 1900, CompletionTokens: 9}},
			}, providertest.WithSeed(31))
			root, stateDir := t.TempDir(), t.TempDir()
			writeFiles(t, root, map[string]string{"a.txt": "hello: ALPHA-MARKER\n"})

			bashAsked := make(chan struct{}, 1)
			first := startDaemonWith(t, dialect, modelURL(model, dialect), stateDir, nil, lsptest.Handlers{
				ShowMessageRequest: func(ctx context.Context, p protocol.ShowMessageRequestParams) (*protocol.MessageActionItem, error) {
					if strings.Contains(p.Message, "run_bash") {
						bashAsked <- struct{}{}
						<-ctx.Done() // the user never answers
						return nil, ctx.Err()
					}
					return nil, fmt.Errorf("unexpected popup: %s", p.Message)
				},
			})
			// auto-edit: the write lands without a popup (popups come one at a
			// time, and run_bash's is never answered).
			if _, err := first.ed.Initialize(ctx(t), root, fullCaps, map[string]any{"mode": "auto-edit"}); err != nil {
				t.Fatal(err)
			}
			promptAsync(t, first.ed, map[string]any{"prompt": "Note it down."})
			select {
			case <-bashAsked:
			case <-ctx(t).Done():
				t.Fatal("run_bash never asked for approval")
			}
			var done map[string]update
			await.Until(t, "the results of read_file and write_file", first.ed.Changed, func() bool {
				done = toolResults(t, first.ed)
				return len(done) == 2
			})
			write := done["c_write"]
			if write.Status != "completed" || !strings.Contains(write.Output, "notes.txt") {
				t.Fatalf("write_file result = %+v", write)
			}
			first.kill(t)

			second := startDaemon(t, dialect, modelURL(model, dialect), stateDir)
			if _, err := second.ed.Initialize(ctx(t), root, fullCaps, nil); err != nil {
				t.Fatal(err)
			}
			list := listSessions(t, second.ed)
			if len(list) != 1 || list[0].Title != "Note it down." {
				t.Fatalf("sessions after the restart = %+v", list)
			}
			var r promptResult
			if err := second.ed.Call(ctx(t), "agent/prompt", map[string]any{"sessionId": list[0].SessionID, "prompt": "What happened?"}, &r); err != nil {
				t.Fatal(err)
			}
			if r.StopReason != "end_turn" || r.Text != "The command was cut; notes.txt is written." {
				t.Fatalf("prompt after the restart = %+v", r)
			}
			reqs := assertAccepted(t, model, 2)
			body := string(reqs[1].Body)
			for _, want := range []string{"ALPHA-MARKER", jsonText(write.Output),
				"interrupted: the agent stopped before this call finished; check the files the command may have changed: echo hi"} {
				if !strings.Contains(body, want) {
					t.Errorf("the request after the restart lacks %s:\n%s", want, body)
				}
			}
		})
	}
}

// jsonText is s as it appears inside a JSON string of a request body.
func jsonText(s string) string {
	b, _ := json.Marshal(s)
	return strings.Trim(string(b), `"`)
}

// TestKillDaemonInFirstModelCallAndResume kills the daemon while the first
// model call of a new session streams: the prompt was stored as it
// started, so the new daemon lists the session under it and resumes it.
func TestKillDaemonInFirstModelCallAndResume(t *testing.T) {
	for _, dialect := range []string{openai.Name, anthropic.Name} {
		t.Run(dialect, func(t *testing.T) {
			model := providertest.NewServer(t, providertest.Script{
				{Text: "this answer is never finished", Fault: &providertest.Fault{Stall: providertest.Forever, StallAfterFrames: 3}},
				{Text: "Here is the plan.", Usage: provider.Usage{PromptTokens: 900, CompletionTokens: 5}},
			}, providertest.WithSeed(32))
			root, stateDir := t.TempDir(), t.TempDir()
			first := startDaemon(t, dialect, modelURL(model, dialect), stateDir)
			if _, err := first.ed.Initialize(ctx(t), root, fullCaps, nil); err != nil {
				t.Fatal(err)
			}
			promptAsync(t, first.ed, map[string]any{"prompt": "Plan the refactor."})
			if err := model.WaitRequests(ctx(t), 1); err != nil {
				t.Fatalf("the first model call: %v", err)
			}
			first.kill(t)

			second := startDaemon(t, dialect, modelURL(model, dialect), stateDir)
			if _, err := second.ed.Initialize(ctx(t), root, fullCaps, nil); err != nil {
				t.Fatal(err)
			}
			list := listSessions(t, second.ed)
			if len(list) != 1 || list[0].Title != "Plan the refactor." {
				t.Fatalf("sessions after the restart = %+v", list)
			}
			var r promptResult
			if err := second.ed.Call(ctx(t), "agent/prompt", map[string]any{"sessionId": list[0].SessionID, "prompt": "Are you there?"}, &r); err != nil {
				t.Fatal(err)
			}
			if r.StopReason != "end_turn" || r.Text != "Here is the plan." {
				t.Fatalf("prompt after the restart = %+v", r)
			}
			reqs := assertAccepted(t, model, 2)
			if body := string(reqs[1].Body); !strings.Contains(body, "Plan the refactor.") || strings.Contains(body, "never finished") {
				t.Errorf("the request after the restart = %s", body)
			}
		})
	}
}

package acp_test

import (
	"context"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agent-lsp/agent-lsp/internal/await"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// thoughtHas matches an agent_thought_chunk holding s (the queue's line).
func thoughtHas(s string) func(sdk.SessionUpdate) bool {
	return func(u sdk.SessionUpdate) bool {
		return u.AgentThoughtChunk != nil && u.AgentThoughtChunk.Content.Text != nil &&
			strings.Contains(u.AgentThoughtChunk.Content.Text.Text, s)
	}
}

type acpAnswer struct {
	resp sdk.PromptResponse
	err  error
}

// In process, both dialects: while a command waits for its permission, a
// steer (_meta) and a second session/prompt (queued) arrive; the steer
// reaches the next request after the tool result and is answered end_turn
// with _meta stopReason steered, the queued prompt runs after the turn; a
// session/cancel with _meta dropQueue removes a queued prompt.
func TestQueueAndSteerInProcess(t *testing.T) {
	for _, dialect := range []string{"openai", "anthropic"} {
		t.Run(dialect, func(t *testing.T) {
			bash := func(id string) providertest.Turn {
				return providertest.Turn{ToolCalls: []providertest.Call{{ID: id, Name: "run_bash", Arguments: `{"command":"echo slow"}`}}}
			}
			h := startAgent(t, harnessOptions{dialect: dialect,
				script: providertest.Script{bash("call_a"), {Text: "Steered."}, {Text: "Queued ran."}, bash("call_c")}})
			asked, release := make(chan string, 4), make(chan sdk.RequestPermissionOutcome, 4)
			h.client.answer = func(ctx context.Context, p sdk.RequestPermissionRequest) sdk.RequestPermissionOutcome {
				asked <- string(p.ToolCall.ToolCallId)
				select {
				case o := <-release:
					return o
				case <-ctx.Done():
					return sdk.RequestPermissionOutcome{Cancelled: &sdk.RequestPermissionOutcomeCancelled{Outcome: "cancelled"}}
				}
			}
			h.initialize(false)
			ns, err := h.conn.NewSession(h.ctx(), sdk.NewSessionRequest{Cwd: t.TempDir(), McpServers: []sdk.McpServer{}})
			if err != nil {
				t.Fatal(err)
			}
			send := func(text string, meta map[string]any) <-chan acpAnswer {
				ch := make(chan acpAnswer, 1)
				go func() {
					resp, err := h.conn.Prompt(h.ctx(), sdk.PromptRequest{SessionId: ns.SessionId, Meta: meta,
						Prompt: []sdk.ContentBlock{sdk.TextBlock(text)}})
					ch <- acpAnswer{resp, err}
				}()
				return ch
			}
			steerMeta := map[string]any{"agent-lsp": map[string]any{"delivery": "steer"}}

			first := send("Run it.", nil)
			await.Event(t, asked, "the permission request")
			steer := send("Also say hi.", steerMeta)
			if _, err := h.client.waitFor(h.ctx(), thoughtHas(`[queue: q1 steer "Also say hi."]`)); err != nil {
				t.Fatal(err)
			}
			queued := send("Then the queued one.", nil)
			if _, err := h.client.waitFor(h.ctx(), thoughtHas(`q2 queue "Then the queued one."`)); err != nil {
				t.Fatal(err)
			}
			release <- selected("allow_once")
			if a := await.Event(t, first, "the first prompt"); a.err != nil || a.resp.StopReason != sdk.StopReasonEndTurn {
				t.Fatalf("first: %+v", a)
			}
			a := await.Event(t, steer, "the steer")
			if meta, _ := a.resp.Meta["agent-lsp"].(map[string]any); a.err != nil || a.resp.StopReason != sdk.StopReasonEndTurn || meta["stopReason"] != "steered" {
				t.Fatalf("steer: %+v", a)
			}
			if a := await.Event(t, queued, "the queued prompt"); a.err != nil || a.resp.StopReason != sdk.StopReasonEndTurn || a.resp.Meta != nil {
				t.Fatalf("queued: %+v", a)
			}
			if _, err := h.client.waitFor(h.ctx(), func(u sdk.SessionUpdate) bool {
				return u.UserMessageChunk != nil && u.UserMessageChunk.Content.Text != nil && u.UserMessageChunk.Content.Text.Text == "Also say hi."
			}); err != nil {
				t.Fatal(err)
			}
			reqs := h.model.Requests()
			second := string(reqs[1].Body)
			if r, s := strings.LastIndex(second, "slow"), strings.LastIndex(second, "Also say hi."); r < 0 || s < r {
				t.Errorf("the steered request:\n%s", second)
			}

			// session/cancel with dropQueue: the queued prompt is removed.
			cancelled := send("Cancel me.", nil)
			await.Event(t, asked, "the second permission request")
			dropped := send("Drop me.", nil)
			if _, err := h.client.waitFor(h.ctx(), thoughtHas(`q3 queue "Drop me."`)); err != nil {
				t.Fatal(err)
			}
			if err := h.conn.Cancel(h.ctx(), sdk.CancelNotification{SessionId: ns.SessionId,
				Meta: map[string]any{"agent-lsp": map[string]any{"dropQueue": true}}}); err != nil {
				t.Fatal(err)
			}
			if a := await.Event(t, cancelled, "the cancelled prompt"); a.err != nil || a.resp.StopReason != sdk.StopReasonCancelled {
				t.Fatalf("cancelled: %+v", a)
			}
			a = await.Event(t, dropped, "the dropped prompt")
			if meta, _ := a.resp.Meta["agent-lsp"].(map[string]any); a.err != nil || a.resp.StopReason != sdk.StopReasonCancelled || meta["notice"] != "removed from the queue" {
				t.Fatalf("dropped: %+v", a)
			}
			if n := len(h.model.Requests()); n != 4 {
				t.Fatalf("%d model requests, want 4", n)
			}
		})
	}
}

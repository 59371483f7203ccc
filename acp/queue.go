package acp

import (
	"context"
	"fmt"
	"strings"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agent-lsp/agent-lsp/agent/control"
)

// metaKey is the key of our fields in ACP's _meta objects (docs/acp.md,
// "Queue and steer").
const metaKey = "agent-lsp"

// ourMeta is the agent-lsp object of a request's _meta, nil when absent.
func ourMeta(meta map[string]any) (map[string]any, error) {
	v, ok := meta[metaKey]
	if !ok || v == nil {
		return nil, nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("_meta.%s is not an object", metaKey)
	}
	return m, nil
}

// promptDelivery is a session/prompt's delivery: _meta["agent-lsp"].delivery
// "steer" or "queue"; absent, a prompt sent while another runs is queued.
func promptDelivery(meta map[string]any) (control.Delivery, error) {
	m, err := ourMeta(meta)
	if err != nil || m["delivery"] == nil {
		return control.DeliverQueue, err
	}
	d, ok := m["delivery"].(string)
	if !ok || d == "" {
		return "", fmt.Errorf("_meta.%s.delivery is not \"queue\" or \"steer\"", metaKey)
	}
	return control.ParseDelivery(d)
}

// cancelDropsQueue says whether a session/cancel also removes the queued
// prompts: _meta["agent-lsp"].dropQueue true.
func cancelDropsQueue(meta map[string]any) bool {
	m, _ := ourMeta(meta)
	drop, _ := m["dropQueue"].(bool)
	return drop
}

// leftResponse is the answer of a prompt that ran no turn of its own:
// delivered into the running prompt (end_turn), or removed from the queue
// (cancelled). _meta says which, as the LSP daemon's stopReason does.
func leftResponse(stop string, notice string) sdk.PromptResponse {
	reason := sdk.StopReasonEndTurn
	if notice != "" {
		reason = sdk.StopReasonCancelled
	}
	ours := map[string]any{"stopReason": stop}
	if notice != "" {
		ours["notice"] = notice
	}
	return sdk.PromptResponse{StopReason: reason, Meta: map[string]any{metaKey: ours}}
}

// sendQueue shows the session's queue as one agent_thought_chunk line:
// ACP has no queue update, and a thought is what clients show of a
// running turn's inner workings without taking it for the answer.
func (s *session) sendQueue(ctx context.Context, items []control.QueueItem) {
	var b strings.Builder
	b.WriteString("\n[queue: ")
	if len(items) == 0 {
		b.WriteString("empty")
	}
	for i, it := range items {
		if i > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "%s %s %q", it.ID, it.Delivery, it.Prompt)
	}
	b.WriteString("]\n")
	s.send(ctx, sdk.UpdateAgentThoughtText(b.String()))
}

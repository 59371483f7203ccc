package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

var (
	binFlag     = flag.String("bin", "", "the agent-lsp binary (default: built from ./cmd/agent-lsp)")
	promptsFlag = flag.Int("prompts", 30, "prompts of the first-chunk run")
)

// TestFirstChunkBench times session/prompt → the first agent_message_chunk
// against the strict fake model (openai dialect) over one session, the
// agent's whole path: the controller, the provider's HTTP request, the
// fake's first SSE frame, the relay to ACP. The fake answers at once, so
// the figure is the agent's own latency. A Go client, not the Node SDK:
// the fake is a Go test server, and the SDK's schema validation and
// event-loop scheduling would be timed with the agent.
func TestFirstChunkBench(t *testing.T) {
	bin := *binFlag
	if bin == "" {
		bin = filepath.Join(t.TempDir(), "agent-lsp")
		build := exec.Command("go", "build", "-o", bin, "./cmd/agent-lsp")
		build.Dir = filepath.Join("..", "..")
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("building agent-lsp: %v\n%s", err, out)
		}
	}
	n := *promptsFlag
	var script providertest.Script
	for i := 0; i < n; i++ {
		script = append(script, providertest.Turn{Text: fmt.Sprintf("Answer %d, streamed in a few deltas.", i),
			Usage: provider.Usage{PromptTokens: 100 + i, CompletionTokens: 8}})
	}
	model := providertest.NewServer(t, script)
	work := t.TempDir()
	env := append(os.Environ(), "XDG_STATE_HOME="+filepath.Join(work, "state"))
	c, err := startAgent([]string{bin, "acp", "--provider", "openai", "--base-url", model.OpenAIBaseURL(),
		"--api-key-env", "none", "--thinking=false"}, work, env)
	if err != nil {
		t.Fatal(err)
	}
	defer c.close()
	first := make(chan time.Time, 1)
	c.onNotify = func(method string, params json.RawMessage, at time.Time) {
		var n struct {
			Update struct {
				SessionUpdate string `json:"sessionUpdate"`
			} `json:"update"`
		}
		if method == "session/update" && json.Unmarshal(params, &n) == nil && n.Update.SessionUpdate == "agent_message_chunk" {
			select {
			case first <- at:
			default: // a later chunk of the same prompt
			}
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if _, err := c.call(ctx, "initialize", map[string]any{"protocolVersion": 1, "clientCapabilities": map[string]any{}}); err != nil {
		t.Fatal(err)
	}
	raw, err := c.call(ctx, "session/new", map[string]any{"cwd": work, "mcpServers": []any{}})
	if err != nil {
		t.Fatal(err)
	}
	var created struct {
		SessionID string `json:"sessionId"`
	}
	if err := json.Unmarshal(raw, &created); err != nil {
		t.Fatal(err)
	}
	var lat []time.Duration
	for i := 0; i < n; i++ {
		start := time.Now()
		if _, err := c.call(ctx, "session/prompt", map[string]any{"sessionId": created.SessionID,
			"prompt": []any{map[string]any{"type": "text", "text": fmt.Sprintf("question %d", i)}}}); err != nil {
			t.Fatal(err)
		}
		select {
		case at := <-first:
			lat = append(lat, at.Sub(start))
		default:
			t.Fatalf("prompt %d answered without an agent_message_chunk", i)
		}
	}
	slices.Sort(lat)
	ms := func(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d.Microseconds())/1000) }
	var b strings.Builder
	fmt.Fprintf(&b, "session/prompt → first agent_message_chunk (fake model, %d prompts, one session)\n", n)
	fmt.Fprintf(&b, "  min %s  median %s  p90 %s  max %s\n", ms(lat[0]), ms(lat[len(lat)/2]), ms(lat[len(lat)*9/10]), ms(lat[len(lat)-1]))
	t.Log("\n" + b.String())
}

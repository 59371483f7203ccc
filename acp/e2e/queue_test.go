package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// The ACP SDK client queues and steers (node/queue.mjs) against the real
// binary in both dialects: the steer message sent while a command waits
// for its permission reaches the next request after the tool result; the
// prompt sent meanwhile is queued and runs after the turn; session/cancel
// keeps the queue, session/cancel with _meta dropQueue removes it.
func TestSDKClientQueuesAndSteers(t *testing.T) {
	node, dir := requireSDK(t)
	for _, dialect := range []string{"openai", "anthropic"} {
		t.Run(dialect, func(t *testing.T) {
			bash := func(id string) providertest.Turn {
				return providertest.Turn{ToolCalls: []providertest.Call{{ID: id, Name: "run_bash", Arguments: `{"command":"echo slow"}`}}}
			}
			model := providertest.NewServer(t, providertest.Script{bash("call_a"), {Text: "Steered."}, {Text: "Queued ran."},
				bash("call_c"), {Text: "Kept."}, bash("call_e")})
			baseURL := model.OpenAIBaseURL()
			if dialect == "anthropic" {
				baseURL = model.AnthropicBaseURL()
			}
			root := workspace(t, map[string]string{"notes.txt": "notes\n"})
			logFile := filepath.Join(t.TempDir(), "agent-lsp.log")
			t.Cleanup(func() {
				if b, err := os.ReadFile(logFile); err == nil && t.Failed() {
					t.Logf("agent log:\n%s", tail(b, 80))
				}
			})
			cfg, err := json.Marshal(map[string]any{
				"command": []string{agentBinary, "acp", "--provider", dialect, "--base-url", baseURL,
					"--api-key-env", "none", "--thinking=false", "--log-file", logFile},
				"root": root, "steer": "Also say hi.", "queued": "Then the queued one.", "timeoutMs": 30000,
			})
			if err != nil {
				t.Fatal(err)
			}
			cfgPath := filepath.Join(t.TempDir(), "config.json")
			if err := os.WriteFile(cfgPath, cfg, 0o644); err != nil {
				t.Fatal(err)
			}
			out, runErr := runNode(t, 40*time.Second, node, dir, isolatedEnv(t), filepath.Join(dir, "queue.mjs"), cfgPath)
			var sum struct {
				OK         bool     `json:"ok"`
				Failures   []string `json:"failures"`
				Violations []string `json:"violations"`
			}
			if err := json.Unmarshal(out, &sum); err != nil {
				t.Fatalf("node: %v; stdout %q: %v", runErr, out, err)
			}
			if !sum.OK || runErr != nil {
				t.Fatalf("the SDK client failed (%v):\n  failures:\n    %s\n  protocol violations:\n    %s", runErr,
					strings.Join(sum.Failures, "\n    "), strings.Join(sum.Violations, "\n    "))
			}

			reqs := model.Requests()
			if len(reqs) != 6 {
				t.Fatalf("%d model requests, want 6", len(reqs))
			}
			second, third := string(reqs[1].Body), string(reqs[2].Body)
			if r, s := strings.LastIndex(second, "slow"), strings.LastIndex(second, "Also say hi."); r < 0 || s < r {
				t.Errorf("the steered request does not carry the steer after the tool result:\n%s", second)
			}
			if !strings.Contains(third, "Then the queued one.") || strings.Index(third, "Also say hi.") > strings.Index(third, "Then the queued one.") {
				t.Errorf("the queued prompt's request:\n%s", third)
			}
			if strings.Contains(string(reqs[5].Body), "Drop me.") {
				t.Errorf("a dropped prompt reached the model")
			}
		})
	}
}

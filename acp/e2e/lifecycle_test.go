package e2e

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// The ACP SDK client (node/lifecycle.mjs) against the real binary, both
// dialects: an image prompt reaches the model as the dialect's image; the
// model picker goes to a preset and back to the started-with model (whose
// name the next request carries); session/fork carries the conversation;
// session/delete removes the fork.
func TestSDKClientLifecycle(t *testing.T) {
	node, dir := requireSDK(t)
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, 8, 6))); err != nil {
		t.Fatal(err)
	}
	for _, dialect := range []string{"openai", "anthropic"} {
		t.Run(dialect, func(t *testing.T) {
			model := providertest.NewServer(t, providertest.Script{{Text: "A grey box."}, {Text: "Still here."}, {Text: "In the fork."}})
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
				"command": []string{agentBinary, "acp", "--provider", dialect, "--base-url", baseURL, "--model", "vision-model",
					"--api-key-env", "none", "--thinking=false", "--log-file", logFile},
				"root": root, "png": base64.StdEncoding.EncodeToString(b.Bytes()), "preset": "ollama", "timeoutMs": 30000,
			})
			if err != nil {
				t.Fatal(err)
			}
			cfgPath := filepath.Join(t.TempDir(), "config.json")
			if err := os.WriteFile(cfgPath, cfg, 0o644); err != nil {
				t.Fatal(err)
			}
			out, runErr := runNode(t, 40*time.Second, node, dir, isolatedEnv(t), filepath.Join(dir, "lifecycle.mjs"), cfgPath)
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
			if len(reqs) != 3 {
				t.Fatalf("%d model requests, want 3", len(reqs))
			}
			if providertest.ImagesReceived(reqs[0].Body) != 1 {
				t.Errorf("the image did not reach the model as an image:\n%.400s", reqs[0].Body)
			}
			if body := string(reqs[1].Body); !strings.Contains(body, `"vision-model"`) {
				t.Errorf("after the picker's round trip the request is not the started-with model's:\n%.300s", body)
			}
			if body := string(reqs[2].Body); !strings.Contains(body, "Still here.") || !strings.Contains(body, "FORK-ONLY") {
				t.Errorf("the fork's request lacks the conversation:\n%.600s", body)
			}
		})
	}
}

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

// "Always allow for me" in one ACP agent process means no permission
// request in the next one (a fresh process, the same user); a compound
// HIGH command that starts with the allowed one is still asked, with no
// "always" option; /permissions lists the rule and removes it, and the
// command is asked again. Both dialects, through the ACP TypeScript SDK.
func TestAlwaysAllowAcrossAgentProcesses(t *testing.T) {
	for _, dialect := range []string{"openai", "anthropic"} {
		t.Run(dialect, func(t *testing.T) {
			node, dir := requireSDK(t)
			const goTest = "go test ./..."
			bash := func(id, cmd string) providertest.Turn {
				args, _ := json.Marshal(map[string]string{"command": cmd})
				return providertest.Turn{ToolCalls: []providertest.Call{{ID: id, Name: "run_bash", Arguments: string(args)}}}
			}
			model := providertest.NewServer(t, providertest.Script{
				bash("call_1", goTest), {Text: "Tested."}, // first process: asked, always allowed
				bash("call_2", goTest), {Text: "Tested again."}, // second process: not asked
				bash("call_3", goTest+" && rm -rf ../other"), {Text: "Not cleaned."}, // HIGH: asked
				bash("call_4", goTest), {Text: "Asked again."}, // after the removal
			})
			root := workspace(t, map[string]string{"README": "rules\n"})
			baseURL := model.OpenAIBaseURL()
			if dialect == "anthropic" {
				baseURL = model.AnthropicBaseURL()
			}
			env := isolatedEnv(t)
			cfg, err := json.Marshal(map[string]any{
				"command": []string{agentBinary, "acp", "--provider", dialect, "--base-url", baseURL,
					"--api-key-env", "none", "--thinking=false", "--log-file", filepath.Join(t.TempDir(), "agent.log")},
				"root":      root,
				"prompts":   map[string]string{"test": "Run the tests.", "compound": "Test and clean up."},
				"timeoutMs": 50000,
			})
			if err != nil {
				t.Fatal(err)
			}
			cfgPath := filepath.Join(t.TempDir(), "config.json")
			if err := os.WriteFile(cfgPath, cfg, 0o644); err != nil {
				t.Fatal(err)
			}
			out, runErr := runNode(t, 60*time.Second, node, dir, env, filepath.Join(dir, "permissions.mjs"), cfgPath)
			var sum struct {
				OK         bool
				Failures   []string
				Violations []string
				One, Two   []struct {
					Prompt, StopReason, Text string
					Asked                    int
				}
				Compound string
			}
			if err := json.Unmarshal(out, &sum); err != nil {
				t.Fatalf("node: %v; stdout %q: %v", runErr, out, err)
			}
			if !sum.OK || runErr != nil {
				t.Fatalf("the SDK client failed (%v):\n  failures:\n    %s\n  protocol violations:\n    %s", runErr,
					strings.Join(sum.Failures, "\n    "), strings.Join(sum.Violations, "\n    "))
			}
			if len(sum.One) != 1 || sum.One[0].Asked != 1 || len(sum.Two) != 5 {
				t.Fatalf("prompts: %+v / %+v", sum.One, sum.Two)
			}
			for i, want := range []int{0, 1, 0, 0, 1} {
				if sum.Two[i].Asked != want {
					t.Errorf("second process, %q: asked %d times, want %d", sum.Two[i].Prompt, sum.Two[i].Asked, want)
				}
			}
			if sum.Compound != goTest+" && rm -rf ../other" {
				t.Errorf("the HIGH question was about %q", sum.Compound)
			}
			if list := sum.Two[2].Text; !strings.Contains(list, "run_bash: go test ./...") || !strings.Contains(list, "(user)") {
				t.Errorf("/permissions listed:\n%s", list)
			}
			if removed := sum.Two[3].Text; !strings.Contains(removed, `Removed allow rule "run_bash: go test ./..."`) {
				t.Errorf("/permissions remove answered:\n%s", removed)
			}
			rules, err := os.ReadFile(filepath.Join(envValue(env, "XDG_CONFIG_HOME"), "agent-lsp", "permissions.json"))
			if err != nil || strings.Contains(string(rules), "go test") {
				t.Errorf("the user's rules file after the removal: %s (%v)", rules, err)
			}
		})
	}
}

func envValue(env []string, name string) string {
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, name+"="); ok {
			return v
		}
	}
	return ""
}

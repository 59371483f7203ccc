package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// In the chat, "u" (Always allow for me) on go test ./... saves the rule in
// the user's rules file: the next chat runs it without asking; a compound
// HIGH command starting with it is still asked, without the Always
// answers; /permissions lists the rule and removes it; then it is asked
// again. Both dialects.
func TestChatAlwaysAllowPersists(t *testing.T) {
	for _, dialect := range []string{"openai", "anthropic"} {
		t.Run(dialect, func(t *testing.T) {
			config := t.TempDir()
			t.Setenv("XDG_CONFIG_HOME", config)
			const goTest = "go test ./..."
			bash := func(cmd string) providertest.Turn {
				args, _ := json.Marshal(map[string]string{"command": cmd})
				return providertest.Turn{ToolCalls: []providertest.Call{{Name: "run_bash", Arguments: string(args)}}}
			}
			srv := providertest.NewServer(t, providertest.Script{
				bash(goTest), {Text: "Tested."},
				bash(goTest), {Text: "Tested without asking."},
				bash(goTest + " && rm -rf ../other"), {Text: "Not cleaned."},
				bash(goTest), {Text: "Asked again."},
			})
			common := []string{"--provider", dialect, "--base-url", baseURL(srv, dialect), "--api-key-env", "none", "--dir", t.TempDir()}
			const question = "permission: run_bash"

			code, out, errOut := runChatCmd(t, "u\n", append(common, "-p", "Run the tests.")...)
			if code != 0 || !strings.Contains(out+errOut, "[u] Always allow for me") ||
				!strings.Contains(out+errOut, "always allow saves the rule: run_bash: go test ./...") {
				t.Fatalf("first chat: exit %d\n%s\n%s", code, out, errOut)
			}
			rules := filepath.Join(config, "agent-lsp", "permissions.json")
			if data, err := os.ReadFile(rules); err != nil || !strings.Contains(string(data), `"run_bash: go test ./..."`) {
				t.Fatalf("rules file: %s (%v)", data, err)
			}

			code, out, errOut = runChatCmd(t, "", append(common, "-p", "Run the tests again.")...)
			if code != 0 || strings.Contains(out+errOut, question) || !strings.Contains(out, "Tested without asking.") {
				t.Fatalf("second chat asked (exit %d)\n%s\n%s", code, out, errOut)
			}

			code, out, errOut = runChatCmd(t, "Test and clean.\nn\n/permissions\n", common...)
			if code != 0 || strings.Count(out+errOut, question) != 1 || strings.Contains(out+errOut, "[u] Always") {
				t.Fatalf("the HIGH compound command (exit %d)\n%s\n%s", code, out, errOut)
			}
			m := regexp.MustCompile(`(?m)^(u-[0-9a-f]+)\s+allow\s+run_bash: go test \./\.\.\.\s+\(user\)`).FindStringSubmatch(out)
			if m == nil {
				t.Fatalf("/permissions did not list the rule:\n%s", out)
			}

			code, out, errOut = runChatCmd(t, "/permissions remove "+m[1]+"\nRun the tests.\nn\n", common...)
			if code != 0 || !strings.Contains(out, `Removed allow rule "run_bash: go test ./..."`) || strings.Count(out+errOut, question) != 1 {
				t.Fatalf("after the removal (exit %d)\n%s\n%s", code, out, errOut)
			}
		})
	}
}

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

// The chat's session life reaches the hooks (both dialects): SessionStart
// at the first prompt (its stdout joins it), /clear's SessionEnd "clear"
// and SessionStart "clear", and SessionEnd "prompt_input_exit" when the
// user leaves (end of input).
func TestChatSessionLifecycleHooks(t *testing.T) {
	record := `printf '%s\n' "$(cat)" >> "$CLAUDE_PROJECT_DIR/events.jsonl"`
	settings := map[string]any{"hooks": map[string]any{
		"SessionStart": []any{map[string]any{"hooks": []any{map[string]any{"type": "command", "command": record + "; echo 'chat start context'"}}}},
		"SessionEnd":   []any{map[string]any{"hooks": []any{map[string]any{"type": "command", "command": record}}}},
	}}
	for _, dialect := range []string{"openai", "anthropic"} {
		t.Run(dialect, func(t *testing.T) {
			dir := t.TempDir()
			data, _ := json.Marshal(settings)
			path := filepath.Join(t.TempDir(), "settings.json")
			if err := os.WriteFile(path, data, 0o600); err != nil {
				t.Fatal(err)
			}
			srv := providertest.NewServer(t, providertest.Script{{Text: "Hi."}, {Text: "Hi again."}}, providertest.WithAPIKey("k-test"))
			t.Setenv(testKeyEnv, "k-test")
			code, stdout, stderr := runChatCmd(t, "Hello.\n/clear\nHello again.\n", "--provider", dialect, "--base-url", baseURL(srv, dialect),
				"--api-key-env", testKeyEnv, "--dir", dir, "--no-save", "--settings", path)
			if code != 0 {
				t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
			}
			got, _ := os.ReadFile(filepath.Join(dir, "events.jsonl"))
			var events []string
			for _, m := range regexp.MustCompile(`"hook_event_name":"(\w+)".*?"(?:reason|source)":"(\w+)"|"(?:reason|source)":"(\w+)".*?"hook_event_name":"(\w+)"`).FindAllStringSubmatch(string(got), -1) {
				events = append(events, strings.TrimSpace(m[1]+m[4]+" "+m[2]+m[3]))
			}
			want := "SessionStart startup; SessionEnd clear; SessionStart clear; SessionEnd prompt_input_exit"
			if strings.Join(events, "; ") != want {
				t.Errorf("hooks ran for %q, want %s\n%s", events, want, got)
			}
			for i, r := range srv.Requests() {
				if !strings.Contains(string(r.Body), `[session start context from a hook]\nchat start context`) {
					t.Errorf("request %d lacks the SessionStart context", i)
				}
			}
		})
	}
}

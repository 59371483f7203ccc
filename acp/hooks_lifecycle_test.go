package acp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agent-lsp/agent-lsp/hooks"
	"github.com/agent-lsp/agent-lsp/internal/await"
	"github.com/agent-lsp/agent-lsp/provider/anthropic"
	"github.com/agent-lsp/agent-lsp/provider/openai"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// Through ACP, both dialects: session/request_permission runs the
// Notification hooks (notification_type permission_prompt, the question
// as message) while it is open; SessionStart runs at the first prompt and
// SessionEnd "other" when the client goes away.
func TestLifecycleHooksThroughACP(t *testing.T) {
	record := `printf '%s\\n' \"$(cat)\" >> \"$CLAUDE_PROJECT_DIR/events.jsonl\"` // one write: a hook stopped later leaves a whole line
	user, err := hooks.Parse(json.RawMessage(`{
		"Notification": [{"matcher": "permission_prompt", "hooks": [{"type": "command", "command": "` + record + `"}]}],
		"SessionStart": [{"hooks": [{"type": "command", "command": "` + record + `"}]}],
		"SessionEnd": [{"hooks": [{"type": "command", "command": "` + record + `"}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	args, _ := json.Marshal(map[string]string{"command": "echo hi > hi.txt"})
	for _, dialect := range []string{openai.Name, anthropic.Name} {
		t.Run(dialect, func(t *testing.T) {
			root := t.TempDir()
			events := func() []map[string]any {
				data, _ := os.ReadFile(filepath.Join(root, "events.jsonl"))
				var out []map[string]any
				for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
					var in map[string]any
					if json.Unmarshal([]byte(line), &in) == nil {
						out = append(out, in)
					}
				}
				return out
			}
			h := startAgent(t, harnessOptions{dialect: dialect, hooks: user, script: providertest.Script{
				{ToolCalls: []providertest.Call{{ID: "call_1", Name: "run_bash", Arguments: string(args)}}}, {Text: "Done."}}})
			told := make(chan bool, 1)
			h.client.answer = func(ctx context.Context, _ sdk.RequestPermissionRequest) sdk.RequestPermissionOutcome {
				told <- await.Polled(10*time.Second, func() bool { return len(events()) == 2 })
				return selected("allow_once")
			}
			h.initialize(true)
			ns, err := h.conn.NewSession(h.ctx(), sdk.NewSessionRequest{Cwd: root, McpServers: []sdk.McpServer{}})
			if err != nil {
				t.Fatal(err)
			}
			h.prompt(ns.SessionId, "Say hi.")
			if !await.Event(t, told, "the permission question") {
				t.Error("the Notification hook had not run when the user answered")
			}
			h.stop()
			got := events()
			if len(got) != 3 || got[0]["hook_event_name"] != "SessionStart" || got[0]["source"] != "startup" ||
				got[1]["hook_event_name"] != "Notification" || got[1]["notification_type"] != "permission_prompt" ||
				!strings.Contains(fmt.Sprint(got[1]["message"]), "echo hi > hi.txt") ||
				got[2]["hook_event_name"] != "SessionEnd" || got[2]["reason"] != "other" {
				t.Errorf("hook inputs %v", got)
			}
			for _, in := range got {
				if in["session_id"] != string(ns.SessionId) {
					t.Errorf("input %v: want session %s", in, ns.SessionId)
				}
			}
		})
	}
}

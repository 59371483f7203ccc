package acp_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/provider/anthropic"
	"github.com/agent-lsp/agent-lsp/provider/openai"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// Without fs and terminal capabilities the agent edits the disk and runs
// commands with its own process runner.
func TestSessionWithoutClientCapabilities(t *testing.T) {
	for _, d := range []string{openai.Name, anthropic.Name} {
		t.Run(d, func(t *testing.T) {
			ws := t.TempDir()
			file := filepath.Join(ws, "a.txt")
			if err := os.WriteFile(file, []byte("disk line\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			h := startAgent(t, harnessOptions{dialect: d, script: providertest.Script{
				{ToolCalls: []providertest.Call{{ID: "call_read", Name: "read_file", Arguments: `{"path":"a.txt"}`}}},
				{Check: bodyHas("disk line"), ToolCalls: []providertest.Call{{ID: "call_edit", Name: "edit_file",
					Arguments: `{"path":"a.txt","old_string":"disk line","new_string":"edited on disk"}`}}},
				{ToolCalls: []providertest.Call{{ID: "call_bash", Name: "run_bash", Arguments: `{"command":"echo hi-from-runner"}`}}},
				{Check: bodyHas("hi-from-runner"), ToolCalls: []providertest.Call{{ID: "call_todo", Name: "todo_write",
					Arguments: `{"items":[{"content":"edit a.txt","status":"completed"},{"content":"run it","status":"in_progress"}]}`}}},
				{Text: "done", Usage: provider.Usage{PromptTokens: 1200, CompletionTokens: 34}},
			}})
			h.initialize(false)
			ns, err := h.conn.NewSession(h.ctx(), sdk.NewSessionRequest{Cwd: ws, McpServers: []sdk.McpServer{}})
			if err != nil {
				t.Fatal(err)
			}
			if r := h.prompt(ns.SessionId, "edit and run"); r.StopReason != sdk.StopReasonEndTurn {
				t.Fatalf("stop %q", r.StopReason)
			}
			if disk, _ := os.ReadFile(file); string(disk) != "edited on disk\n" {
				t.Fatalf("disk holds %q", disk)
			}
			if len(h.client.reads)+len(h.client.writes)+len(h.client.created) != 0 {
				t.Fatalf("client methods used without capabilities: reads %v writes %v terminals %v", h.client.reads, h.client.writes, h.client.created)
			}
			ups, _ := h.client.snapshot()
			checkDiff(t, ups, "call_edit", "disk line\n", "edited on disk\n")
			checkNoTerminal(t, ups, "call_bash")
			if !slices.ContainsFunc(ups, func(n sdk.SessionNotification) bool {
				p := n.Update.Plan
				return p != nil && len(p.Entries) == 2 && p.Entries[1].Status == sdk.PlanEntryStatusInProgress
			}) {
				t.Fatal("no plan update from todo_write")
			}
			if !slices.ContainsFunc(ups, func(n sdk.SessionNotification) bool {
				u := n.Update.UsageUpdate
				return u != nil && u.Used == 1234 && u.Size > 0 && u.Cost != nil
			}) {
				t.Fatal("no usage_update for the last model call")
			}
		})
	}
}

// A permission request still pending when the prompt is cancelled is
// answered "cancelled" by the client: Deny, and nothing is written.
func TestCancelWithPendingPermission(t *testing.T) {
	ws := t.TempDir()
	h := startAgent(t, harnessOptions{dialect: openai.Name, script: providertest.Script{
		{ToolCalls: []providertest.Call{{ID: "call_write", Name: "write_file", Arguments: `{"path":"new.txt","content":"x"}`}}},
	}})
	asked := make(chan struct{})
	release := make(chan struct{})
	h.client.answer = func(ctx context.Context, _ sdk.RequestPermissionRequest) sdk.RequestPermissionOutcome {
		close(asked)
		select {
		case <-ctx.Done():
		case <-release:
		}
		return sdk.RequestPermissionOutcome{Cancelled: &sdk.RequestPermissionOutcomeCancelled{Outcome: "cancelled"}}
	}
	h.initialize(true)
	ns, err := h.conn.NewSession(h.ctx(), sdk.NewSessionRequest{Cwd: ws, McpServers: []sdk.McpServer{}})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan sdk.PromptResponse, 1)
	go func() { // owner: this test; ends with the prompt
		r, err := h.conn.Prompt(h.ctx(), sdk.PromptRequest{SessionId: ns.SessionId, Prompt: []sdk.ContentBlock{sdk.TextBlock("write")}})
		if err != nil {
			t.Errorf("prompt: %v", err)
		}
		done <- r
	}()
	<-asked
	if err := h.conn.Cancel(h.ctx(), sdk.CancelNotification{SessionId: ns.SessionId}); err != nil {
		t.Fatal(err)
	}
	close(release) // the client's answer to a cancelled turn
	if r := <-done; r.StopReason != sdk.StopReasonCancelled {
		t.Fatalf("stop %q", r.StopReason)
	}
	if _, err := os.Stat(filepath.Join(ws, "new.txt")); !os.IsNotExist(err) {
		t.Fatalf("the file was written: %v", err)
	}
	if len(h.client.writes) != 0 {
		t.Fatalf("writes %v", h.client.writes)
	}
}

// A resource_link attaches its file, an embedded resource the client's
// text for it (an unsaved buffer), like mentions.
func TestPromptWithResources(t *testing.T) {
	for _, d := range []string{openai.Name, anthropic.Name} {
		t.Run(d, func(t *testing.T) {
			ws := t.TempDir()
			if err := os.WriteFile(filepath.Join(ws, "b.txt"), []byte("linked content\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			h := startAgent(t, harnessOptions{dialect: d, script: providertest.Script{{
				Check: func(r providertest.Received) error {
					for _, s := range []string{"linked content", "embedded unsaved text", "compare them"} {
						if err := bodyHas(s)(r); err != nil {
							return err
						}
					}
					return nil
				},
				Text: "compared",
			}}})
			h.initialize(false)
			ns, err := h.conn.NewSession(h.ctx(), sdk.NewSessionRequest{Cwd: ws, McpServers: []sdk.McpServer{}})
			if err != nil {
				t.Fatal(err)
			}
			r, err := h.conn.Prompt(h.ctx(), sdk.PromptRequest{SessionId: ns.SessionId, Prompt: []sdk.ContentBlock{
				sdk.TextBlock("compare them"),
				sdk.ResourceLinkBlock("b.txt", "file://"+filepath.Join(ws, "b.txt")),
				sdk.ResourceBlock(sdk.EmbeddedResourceResource{TextResourceContents: &sdk.TextResourceContents{
					Uri: "file://" + filepath.Join(ws, "c.txt"), Text: "embedded unsaved text\n"}}),
			}})
			if err != nil || r.StopReason != sdk.StopReasonEndTurn {
				t.Fatalf("prompt: %v %+v", err, r)
			}
		})
	}
}

// A slash command runs in the controller: /mode switches the mode, says
// so, and sends current_mode_update.
func TestSlashCommand(t *testing.T) {
	h := startAgent(t, harnessOptions{dialect: openai.Name})
	h.initialize(false)
	ns, err := h.conn.NewSession(h.ctx(), sdk.NewSessionRequest{Cwd: t.TempDir(), McpServers: []sdk.McpServer{}})
	if err != nil {
		t.Fatal(err)
	}
	if r := h.prompt(ns.SessionId, "/mode ask"); r.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("stop %q", r.StopReason)
	}
	ups, _ := h.client.snapshot()
	if got := agentText(ups); !strings.HasPrefix(got, "Mode: ask") {
		t.Fatalf("answer %q", got)
	}
	if !slices.ContainsFunc(ups, func(n sdk.SessionNotification) bool {
		return n.Update.CurrentModeUpdate != nil && n.Update.CurrentModeUpdate.CurrentModeId == "ask"
	}) {
		t.Fatal("no current_mode_update")
	}
	if len(h.model.Requests()) != 0 {
		t.Fatal("a built-in command called the model")
	}
}

func checkNoTerminal(t *testing.T, ups []sdk.SessionNotification, callID string) {
	t.Helper()
	for _, n := range ups {
		if u := n.Update.ToolCallUpdate; u != nil && string(u.ToolCallId) == callID {
			for _, c := range u.Content {
				if c.Terminal != nil {
					t.Fatalf("%s embeds a terminal without the capability", callID)
				}
			}
		}
	}
}

package acp_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// sizedText is "first\nsecond\nthird\n" and lines of x, n bytes in all.
func sizedText(n int) string {
	head := "first\nsecond\nthird\n"
	line := strings.Repeat("x", 99) + "\n"
	body := strings.Repeat(line, (n-len(head))/len(line)+1)[:n-len(head)-1] + "\n"
	return head + body
}

// The size policy on the ACP client's buffers: edit_file of a buffer over
// the limit is refused with the policy's error, nothing is written or
// asked, the connection lives on; read_file with offset/limit reads a
// window of it through fs/read_text_file's line and limit.
func TestClientBufferOverTheLimit(t *testing.T) {
	tests := []struct {
		name         string
		disk, buffer string
		wantRead     string // in the read's result ("" : not checked)
		wantErr      string
	}{
		// Saved: the disk's size says it, the buffer is not asked for whole.
		{name: "40 MB file open in the client", disk: sizedText(40_000_000), buffer: sizedText(40_000_000),
			wantRead: `2\tsecond\n… more lines follow (the file is 38.1 MiB); call read_file with offset 3`,
			wantErr:  "a.txt is 38.1 MiB (40000000 bytes), over the 32.0 MiB limit on files the agent reads whole, edits or writes;"},
		// Unsaved: the disk is small, the buffer over what one message
		// should carry; refused once it came.
		{name: "9 MiB unsaved buffer", disk: "small on disk\n", buffer: sizedText(9 << 20),
			wantErr: "a.txt is 9.0 MiB (9437184 bytes), over the 8.0 MiB limit on files the agent reads whole, edits or writes (through the ACP client"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ws := t.TempDir()
			file := filepath.Join(ws, "a.txt")
			if err := os.WriteFile(file, []byte(tt.disk), 0o600); err != nil {
				t.Fatal(err)
			}
			readCheck := func(providertest.Received) error { return nil }
			if tt.wantRead != "" {
				readCheck = bodyHas(tt.wantRead)
			}
			script := providertest.Script{
				{ToolCalls: []providertest.Call{{ID: "call_read", Name: "read_file", Arguments: `{"path":"a.txt","offset":2,"limit":1}`}}},
				{Check: readCheck, ToolCalls: []providertest.Call{{ID: "call_edit", Name: "edit_file",
					Arguments: `{"path":"a.txt","old_string":"second","new_string":"2nd"}`}}},
				{Check: bodyHas(tt.wantErr), Text: "too large"},
				{Text: "still here"},
			}
			h := startAgent(t, harnessOptions{script: script})
			h.initialize(true)
			h.client.buffers[file] = tt.buffer
			ns, err := h.conn.NewSession(h.ctx(), sdk.NewSessionRequest{Cwd: ws, McpServers: []sdk.McpServer{}})
			if err != nil {
				t.Fatalf("session/new: %v", err)
			}
			for _, p := range []string{"edit a.txt", "are you there?"} {
				if r := h.prompt(ns.SessionId, p); r.StopReason != sdk.StopReasonEndTurn {
					t.Fatalf("%q: stop %q", p, r.StopReason)
				}
			}
			h.client.mu.Lock()
			writes, asked := len(h.client.writes), len(h.client.asked)
			h.client.mu.Unlock()
			if writes != 0 || asked != 0 {
				t.Errorf("%d fs/write_text_file and %d permission requests for a buffer over the limit", writes, asked)
			}
			if h.client.buffer(file) != tt.buffer {
				t.Error("the buffer changed")
			}
			if disk, _ := os.ReadFile(file); string(disk) != tt.disk {
				t.Errorf("the disk changed: %d bytes", len(disk))
			}
		})
	}
}

// A 5 MiB buffer is within the limit, but its old and new text together
// are not what one message should carry: the approval shows the unified
// diff instead, the edit lands, and the connection lives on.
func TestClientEditOfALargeBufferKeepsTheConnection(t *testing.T) {
	ws := t.TempDir()
	file := filepath.Join(ws, "a.txt")
	text := sizedText(5 << 20)
	if err := os.WriteFile(file, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	script := providertest.Script{
		{ToolCalls: []providertest.Call{{ID: "call_edit", Name: "edit_file",
			Arguments: `{"path":"a.txt","old_string":"second","new_string":"2nd"}`}}},
		{Check: bodyHas("a.txt"), Text: "edited"},
		{Text: "still here"},
	}
	h := startAgent(t, harnessOptions{script: script})
	h.initialize(true)
	h.client.buffers[file] = text
	ns, err := h.conn.NewSession(h.ctx(), sdk.NewSessionRequest{Cwd: ws, McpServers: []sdk.McpServer{}})
	if err != nil {
		t.Fatalf("session/new: %v", err)
	}
	for _, p := range []string{"edit a.txt", "are you there?"} {
		if r := h.prompt(ns.SessionId, p); r.StopReason != sdk.StopReasonEndTurn {
			t.Fatalf("%q: stop %q", p, r.StopReason)
		}
	}
	if got, want := h.client.buffer(file), strings.Replace(text, "second", "2nd", 1); got != want {
		t.Errorf("the buffer was not edited (%d bytes, want %d)", len(got), len(want))
	}
	h.client.mu.Lock()
	defer h.client.mu.Unlock()
	if len(h.client.asked) != 1 {
		t.Fatalf("%d permission requests, want 1", len(h.client.asked))
	}
	for _, c := range h.client.asked[0].ToolCall.Content {
		if c.Diff != nil {
			t.Errorf("the approval carries the whole old and new text (%d bytes)", len(c.Diff.NewText))
		}
	}
}

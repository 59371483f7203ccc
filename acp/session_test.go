package acp_test

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agent-lsp/agent-lsp/internal/await"
	"github.com/agent-lsp/agent-lsp/provider/anthropic"
	"github.com/agent-lsp/agent-lsp/provider/openai"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
	"github.com/agent-lsp/agent-lsp/tools/sandbox"
)

func TestSessionWithClientCapabilities(t *testing.T) {
	for _, d := range []string{openai.Name, anthropic.Name} {
		t.Run(d, func(t *testing.T) { testSessionWithClientCapabilities(t, d) })
	}
}

func testSessionWithClientCapabilities(t *testing.T, dialect string) {
	ws := t.TempDir()
	file := filepath.Join(ws, "a.txt")
	if err := os.WriteFile(file, []byte("disk line\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	script := providertest.Script{
		{Reasoning: "let me think", Text: "Hello from the model"},
		{ToolCalls: []providertest.Call{{ID: "call_read", Name: "read_file", Arguments: `{"path":"a.txt"}`}}},
		{Check: bodyHas("unsaved line"), ToolCalls: []providertest.Call{{ID: "call_edit", Name: "edit_file",
			Arguments: `{"path":"a.txt","old_string":"unsaved line","new_string":"edited line"}`}}},
		{ToolCalls: []providertest.Call{{ID: "call_bash", Name: "run_bash", Arguments: `{"command":"echo hi-from-terminal"}`}}},
		{Check: bodyHas("hi-from-terminal"), ToolCalls: []providertest.Call{{ID: "call_mcp", Name: "mcp__demo__word_count", Arguments: `{"text":"one two three"}`}}},
		{Check: bodyHas("words: 3"), Text: "all done"},
		{Text: "a slow answer", Fault: &providertest.Fault{Stall: providertest.Forever, StallAfterFrames: 2}},
		{Text: "on the other model"},
	}
	stateDir := t.TempDir()
	h := startAgent(t, harnessOptions{dialect: dialect, script: script, stateDir: stateDir})
	init := h.initialize(true)
	if init.ProtocolVersion != 1 || !init.AgentCapabilities.LoadSession || !init.AgentCapabilities.PromptCapabilities.EmbeddedContext ||
		!init.AgentCapabilities.PromptCapabilities.Image || !init.AgentCapabilities.McpCapabilities.Http ||
		init.AgentCapabilities.SessionCapabilities.List == nil || init.AgentCapabilities.SessionCapabilities.Resume == nil ||
		init.AgentCapabilities.SessionCapabilities.Close == nil || init.AgentInfo == nil || init.AgentInfo.Name != "agent-lsp" || len(init.AuthMethods) != 0 {
		t.Fatalf("initialize answered %+v", init)
	}
	h.client.buffers[file] = "unsaved line\n" // the user's unsaved edit, not on disk

	ctx := h.ctx()
	ns, err := h.conn.NewSession(ctx, sdk.NewSessionRequest{Cwd: ws, McpServers: []sdk.McpServer{demoServer(t)}})
	if err != nil {
		t.Fatalf("session/new: %v", err)
	}
	if ns.Modes == nil || len(ns.Modes.AvailableModes) != 4 || ns.Modes.CurrentModeId != "default" {
		t.Fatalf("modes %+v", ns.Modes)
	}
	model := findOption(ns.ConfigOptions, "model")
	if model == nil || model.Category == nil || *model.Category != sdk.SessionConfigOptionCategoryModel || len(*model.Options.Ungrouped) < 6 {
		t.Fatalf("model option %+v", model)
	}
	if _, err := h.client.waitFor(ctx, func(u sdk.SessionUpdate) bool {
		return u.AvailableCommandsUpdate != nil && hasCommand(u.AvailableCommandsUpdate.AvailableCommands, "mode")
	}); err != nil {
		t.Fatal(err)
	}

	// Streaming: reasoning and text chunks, end_turn.
	if r := h.prompt(ns.SessionId, "hello"); r.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("stop %q", r.StopReason)
	}
	ups, _ := h.client.snapshot()
	if got := agentText(ups); got != "Hello from the model" {
		t.Fatalf("agent text %q", got)
	}
	if !slices.ContainsFunc(ups, func(n sdk.SessionNotification) bool { return n.Update.AgentThoughtChunk != nil }) {
		t.Fatal("no agent_thought_chunk")
	}
	if !slices.ContainsFunc(ups, func(n sdk.SessionNotification) bool {
		return n.Update.SessionInfoUpdate != nil && n.Update.SessionInfoUpdate.Title != nil && *n.Update.SessionInfoUpdate.Title == "hello"
	}) {
		t.Fatal("no session_info_update with the title")
	}

	// Tools: the unsaved buffer is read and edited through fs/*, the
	// edit asked for, the command run in the client's terminal, the MCP
	// server's tool called.
	if r := h.prompt(ns.SessionId, "work on a.txt"); r.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("stop %q", r.StopReason)
	}
	if got := h.client.buffer(file); got != "edited line\n" {
		t.Fatalf("buffer holds %q", got)
	}
	if disk, _ := os.ReadFile(file); string(disk) != "disk line\n" {
		t.Fatalf("the disk changed: %q", disk)
	}
	checkAsked(t, h.client, "call_edit")
	ups, _ = h.client.snapshot()
	checkDiff(t, ups, "call_edit", "unsaved line\n", "edited line\n")
	checkTerminal(t, ups, "call_bash")
	// The client ran this (test) binary as the sandbox stub, and the stub
	// ran the command: the agent did not have to run it itself.
	if len(h.client.created) != 1 || !strings.Contains(h.client.created[0], sandbox.AttachArg) {
		t.Fatalf("terminals created: %v", h.client.created)
	}
	for _, r := range h.model.Requests() {
		if bytes.Contains(r.Body, []byte("not run in your terminal")) {
			t.Fatalf("the command fell back to the agent's runner: %s", r.Body)
		}
	}
	if !slices.ContainsFunc(ups, func(n sdk.SessionNotification) bool {
		u := n.Update.ToolCallUpdate
		return u != nil && u.ToolCallId == "call_mcp" && u.Status != nil && *u.Status == sdk.ToolCallStatusCompleted
	}) {
		t.Fatal("the MCP tool call did not complete")
	}

	// Cancel a stream that stalls.
	testCancel(t, h, ns.SessionId)

	// Mode and model through config options.
	setMode, err := h.conn.SetSessionConfigOption(ctx, sdk.SetSessionConfigOptionRequest{ValueId: &sdk.SetSessionConfigOptionValueId{SessionId: ns.SessionId, ConfigId: "mode", Value: "plan"}})
	if err != nil || findOption(setMode.ConfigOptions, "mode").CurrentValue != "plan" {
		t.Fatalf("set mode: %v %+v", err, setMode)
	}
	if _, err := h.client.waitFor(ctx, func(u sdk.SessionUpdate) bool {
		return u.CurrentModeUpdate != nil && u.CurrentModeUpdate.CurrentModeId == "plan"
	}); err != nil {
		t.Fatal(err)
	}
	other, otherDialect := "deepseek-anthropic", anthropic.Name
	if dialect == anthropic.Name {
		other, otherDialect = "deepseek", openai.Name
	}
	setModel, err := h.conn.SetSessionConfigOption(ctx, sdk.SetSessionConfigOptionRequest{ValueId: &sdk.SetSessionConfigOptionValueId{SessionId: ns.SessionId, ConfigId: "model", Value: sdk.SessionConfigValueId(other)}})
	if err != nil || string(findOption(setModel.ConfigOptions, "model").CurrentValue) != other {
		t.Fatalf("set model: %v %+v", err, setModel)
	}
	if _, err := h.client.waitFor(ctx, func(u sdk.SessionUpdate) bool { return u.ConfigOptionUpdate != nil }); err != nil {
		t.Fatal(err)
	}
	h.prompt(ns.SessionId, "and now?")
	reqs := h.model.Requests()
	if last := reqs[len(reqs)-1]; last.Dialect != otherDialect {
		t.Fatalf("after the switch the request went in %q", last.Dialect)
	}
	h.stop()

	// A fresh agent on the same store: list, then load with the replay.
	h2 := startAgent(t, harnessOptions{dialect: dialect, stateDir: stateDir, model: h.model})
	h2.initialize(true)
	list, err := h2.conn.ListSessions(h2.ctx(), sdk.ListSessionsRequest{Cwd: &ws})
	if err != nil || len(list.Sessions) != 1 || list.Sessions[0].SessionId != ns.SessionId {
		t.Fatalf("session/list: %v %+v", err, list)
	}
	if _, err := h2.conn.LoadSession(h2.ctx(), sdk.LoadSessionRequest{SessionId: ns.SessionId, Cwd: ws, McpServers: []sdk.McpServer{}}); err != nil {
		t.Fatalf("session/load: %v", err)
	}
	replayed, _ := h2.client.snapshot() // before the answer, so here now
	checkReplay(t, replayed)
	// The cancelled prompt is replayed with its answer marked cancelled,
	// not as a question left unanswered.
	if !strings.Contains(agentText(replayed), "[cancelled by the user]") {
		t.Errorf("the cancelled prompt is replayed without its mark:\n%s", agentText(replayed))
	}
	h2.stop()

	// Resume: the same session, no replay.
	h3 := startAgent(t, harnessOptions{dialect: dialect, stateDir: stateDir, model: h.model})
	h3.initialize(true)
	res, err := h3.conn.ResumeSession(h3.ctx(), sdk.ResumeSessionRequest{SessionId: ns.SessionId, Cwd: ws})
	if err != nil || res.Modes == nil || res.Modes.CurrentModeId != "plan" {
		t.Fatalf("session/resume: %v %+v", err, res)
	}
	ups, _ = h3.client.snapshot()
	if slices.ContainsFunc(ups, func(n sdk.SessionNotification) bool {
		return n.Update.UserMessageChunk != nil || n.Update.AgentMessageChunk != nil
	}) {
		t.Fatal("session/resume replayed the conversation")
	}
}

func testCancel(t *testing.T, h *harness, id sdk.SessionId) {
	t.Helper()
	before := len(h.model.Requests())
	type result struct {
		resp sdk.PromptResponse
		err  error
	}
	done := make(chan result, 1)
	go func() { // owner: this test; ends with the prompt
		r, err := h.conn.Prompt(h.ctx(), sdk.PromptRequest{SessionId: id, Prompt: []sdk.ContentBlock{sdk.TextBlock("take your time")}})
		done <- result{r, err}
	}()
	if err := h.model.WaitRequests(h.ctx(), before+1); err != nil {
		t.Fatal(err)
	}
	if err := h.conn.Cancel(h.ctx(), sdk.CancelNotification{SessionId: id}); err != nil {
		t.Fatal(err)
	}
	// The stream stalls forever and the idle timeout is five minutes: only
	// the cancel can end the prompt (how long the agent may wait on timers
	// after a cancel is agent's TestCancelMidStream, on synctest's clock).
	r := await.Event(t, done, "session/cancel to end the prompt")
	if r.err != nil || r.resp.StopReason != sdk.StopReasonCancelled {
		t.Fatalf("cancelled prompt: %v %+v", r.err, r.resp)
	}
	// What the model read before the cancel is counted, not reported as 0.
	if r.resp.Usage == nil || r.resp.Usage.InputTokens == 0 {
		t.Errorf("cancelled prompt's usage %+v, want what the model read", r.resp.Usage)
	}
	if n := len(h.model.Requests()); n != before+1 {
		t.Errorf("%d model requests after the cancel, want %d: no retry", n, before+1)
	}
}

func findOption(opts []sdk.SessionConfigOption, id string) *sdk.SessionConfigOptionSelect {
	for _, o := range opts {
		if o.Select != nil && string(o.Select.Id) == id {
			return o.Select
		}
	}
	return nil
}

func hasCommand(cmds []sdk.AvailableCommand, name string) bool {
	return slices.ContainsFunc(cmds, func(c sdk.AvailableCommand) bool { return c.Name == name })
}

func checkAsked(t *testing.T, c *testClient, callID string) {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, p := range c.asked {
		if string(p.ToolCall.ToolCallId) != callID {
			continue
		}
		var ids []string
		for _, o := range p.Options {
			ids = append(ids, string(o.OptionId))
		}
		if strings.Join(ids, ",") != "allow_once,allow_always,reject_once" {
			t.Fatalf("options %v", ids)
		}
		return
	}
	t.Fatalf("no permission asked for %s (asked: %d)", callID, len(c.asked))
}

func checkDiff(t *testing.T, ups []sdk.SessionNotification, callID, old, new string) {
	t.Helper()
	for _, n := range ups {
		u := n.Update.ToolCallUpdate
		if u == nil || string(u.ToolCallId) != callID {
			continue
		}
		for _, c := range u.Content {
			if d := c.Diff; d != nil && d.OldText != nil && *d.OldText == old && d.NewText == new {
				return
			}
		}
	}
	t.Fatalf("no diff block for %s", callID)
}

func checkTerminal(t *testing.T, ups []sdk.SessionNotification, callID string) {
	t.Helper()
	for _, n := range ups {
		u := n.Update.ToolCallUpdate
		if u == nil || string(u.ToolCallId) != callID {
			continue
		}
		for _, c := range u.Content {
			if c.Terminal != nil && c.Terminal.TerminalId != "" {
				return
			}
		}
	}
	t.Fatalf("no terminal embedded in %s", callID)
}

func checkReplay(t *testing.T, ups []sdk.SessionNotification) {
	t.Helper()
	var kinds []string
	for _, n := range ups {
		u := n.Update
		switch {
		case u.UserMessageChunk != nil && u.UserMessageChunk.Content.Text != nil && strings.Contains(u.UserMessageChunk.Content.Text.Text, "hello"):
			kinds = append(kinds, "user:hello")
		case u.AgentMessageChunk != nil && u.AgentMessageChunk.Content.Text != nil && u.AgentMessageChunk.Content.Text.Text == "Hello from the model":
			kinds = append(kinds, "agent:hello")
		case u.AgentThoughtChunk != nil:
			kinds = append(kinds, "thought")
		case u.ToolCall != nil && u.ToolCall.ToolCallId == "call_read":
			kinds = append(kinds, "call:read")
		case u.ToolCallUpdate != nil && u.ToolCallUpdate.ToolCallId == "call_read":
			kinds = append(kinds, "result:read")
		}
	}
	want := []string{"user:hello", "thought", "agent:hello", "call:read", "result:read"}
	if !slices.Equal(kinds, want) {
		t.Fatalf("replay %v, want %v", kinds, want)
	}
}

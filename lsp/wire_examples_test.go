package lsp

import (
	"encoding/json"
	"time"

	"go.lsp.dev/protocol"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/agent/control"
	"github.com/agent-lsp/agent-lsp/mcp"
	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/tools"
)

// wireExample is one message of the agent/* protocol as the Go types
// write it: TestWireGolden keeps testdata/wire/<name>.json equal to it,
// and the editors' unit tests read those files through their own types
// (editors/vscode/src/test/wire.test.ts, editors/nvim/test/wire.lua).
type wireExample struct {
	name   string // the file's name, without .json
	method string
	from   string // "editor" or "daemon": who sends it
	params any
	result any // nil: a notification
}

var (
	exampleTime   = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	exampleCost   = 0.25
	exampleURL    = "http://127.0.0.1:11434/v1"
	exampleKind   = "openai"
	exampleKey    = "OPENAI_API_KEY"
	exampleVision = false
	exampleHunk   = reviewHunk{ID: 0, StartLine: 2, EndLine: 3, OldText: "a := 1\n", NewText: "a := 2\n",
		Diff: "@@ -3 +3 @@\n-a := 1\n+a := 2\n"}
	exampleTotals = totals{PromptTokens: 30, CompletionTokens: 12, CachedTokens: 4, Cost: &exampleCost, CostKnown: true}
	exampleUsage  = provider.Usage{PromptTokens: 20, CompletionTokens: 7, CachedTokens: 2}
	examplePlan   = []tools.TodoItem{{Content: "Read main.go", Status: "in_progress"}}
	exampleRange  = protocol.Range{Start: protocol.Position{Line: 2, Character: 0}, End: protocol.Position{Line: 4, Character: 1}}
	exampleModel  = currentModel{Provider: "openai", Model: "gpt-x", BaseURL: exampleURL, ContextWindow: 128000,
		ContextWindowSource: "preset"}
	exampleHeader  = func(k string) updateHeader { return updateHeader{SessionID: "s1", Seq: 7, Kind: k} }
	exampleQueueID = "q1"
	exampleQueued  = queueItem{ID: exampleQueueID, Prompt: "then update the changelog", Delivery: "queue"}
)

var exampleSpend = spendBody{SessionUSD: 0.82, SessionCapUSD: 1, DayUSD: 3.1, DayCapUSD: 10, WorkspaceDayUSD: 2.4, WorkspaceDayCapUSD: 5,
	SessionTokens: 410000, TokenCap: 2000000, Warnings: []string{"82% of the session's cap spent ($0.82 of $1.00)"}}

// wireExamples are every agent/* method and notification, both ways: the
// requests the editor sends (each route's params and result types, which
// TestWireGolden checks against the route table), and what the daemon
// sends (agent/update of every kind, agent/approve, agent/review,
// agent/completionStatus). Every field of every type has a value, so each
// file shows every field a client may meet.
var wireExamples = []wireExample{
	{name: "agent.newSession", method: "agent/newSession", from: "editor",
		params: newSessionParams{Title: "fix the parser", Worktree: json.RawMessage(`"parser"`)},
		result: newSessionResult{SessionID: "s1", Worktree: &exampleWorktree}},
	{name: "agent.prompt", method: "agent/prompt", from: "editor",
		params: promptParams{SessionID: "s1", Prompt: "explain @main.go", WorkDoneToken: json.RawMessage(`"tok-1"`), Delivery: "queue",
			Context: &promptContext{URI: "file:///w/main.go", Range: &exampleRange, Files: []string{"file:///w/util.go"}},
			// One image by its bytes, one by its file: either field, never both.
			Images: []promptImage{{MimeType: "image/png", Data: "iVBORw0KGgo="}, {URI: "file:///w/shot.png"}}},
		result: promptResult{promptResultHead: promptResultHead{SessionID: "s1", StopReason: "max_rounds"}, Text: "It parses.",
			promptResultTail: promptResultTail{Usage: exampleUsage, Error: "model API answered 529 Overloaded",
				Notice: "stopped after 50 rounds", Command: "/mode",
				Mentions: []agent.MentionReport{{Path: "main.go", StartLine: 3, EndLine: 9, Status: "attached", Message: "cut to fit"}}}}},
	{name: "agent.sessions", method: "agent/sessions", from: "editor", params: noParams{},
		result: sessionsResult{Sessions: []sessionInfo{{SessionID: "s1", Title: "fix the parser", CreatedAt: exampleTime, UpdatedAt: exampleTime,
			Worktree: &exampleWorktree}}}},
	{name: "agent.worktree", method: "agent/worktree", from: "editor",
		params: worktreeParams{sessionRef: sessionRef{SessionID: "s1"}, Action: "remove", Force: true},
		// Every field, though an answer carries only its action's.
		result: worktreeResult{Action: "review", Applied: []worktreeFile{{Path: "parse.go", Hunks: 3, Accepted: []int{1, 3}}},
			Rejected: []string{"notes.md"}, Skipped: []worktreeSkip{{Path: "logo.png", Reason: "binary"}},
			Branch: "agent-lsp/parser", Committed: true, Path: "/w.worktrees/parser", BranchKept: true}},
	{name: "agent.tools", method: "agent/tools", from: "editor", params: noParams{},
		result: toolsResult{Tools: []toolInfo{{Name: "read_file", Description: "Read a file.", Source: "builtin"}},
			Prompts: []tools.PromptInfo{{Server: "docs", Name: "review", Title: "Review", Description: "Review a change.",
				Arguments: []tools.PromptArgument{{Name: "focus", Description: "what to look at", Required: true}}}}}},
	{name: "agent.cancel", method: "agent/cancel", from: "editor", params: cancelParams{SessionID: "s1", DropQueue: true}},
	// One example shows every field: a request has either remove, or edit with prompt.
	{name: "agent.queue", method: "agent/queue", from: "editor",
		params: queueParams{sessionRef: sessionRef{SessionID: "s1"}, Remove: &exampleQueueID, Edit: &exampleQueueID, Prompt: &exampleQueued.Prompt},
		result: queueResult{Items: []queueItem{exampleQueued}}},
	{name: "agent.compact", method: "agent/compact", from: "editor",
		params: compactParams{sessionRef: sessionRef{SessionID: "s1"}, WorkDoneToken: json.RawMessage(`"tok-2"`),
			Instructions: "keep the failing test's name"},
		result: compactResult{BeforeTokens: 9000, AfterTokens: 1200, Elided: 3, Summarised: 12, Error: "nothing to compact"}},
	{name: "agent.mcpStatus", method: "agent/mcpStatus", from: "editor", params: noParams{}, result: exampleMCPStatus},
	{name: "agent.mcpTrust", method: "agent/mcpTrust", from: "editor",
		params: mcpTrustParams{Server: "docs", Decision: "always", Hash: "sha256:ab12"}, result: exampleMCPStatus},
	{name: "agent.setMode", method: "agent/setMode", from: "editor",
		params: setModeParams{sessionRef: sessionRef{SessionID: "s1"}, Mode: "plan"}, result: modeResult{Mode: "plan"}},
	{name: "agent.setModel", method: "agent/setModel", from: "editor",
		params: setModelParams{sessionRef: sessionRef{SessionID: "s1"}, Preset: "local", Provider: &exampleKind, Model: "gpt-x",
			BaseURL: &exampleURL, APIKeyEnv: &exampleKey},
		result: exampleModel},
	{name: "agent.models", method: "agent/models", from: "editor", params: modelsParams{SessionID: "s1"},
		result: modelsResult{Current: &exampleModel, Models: []modelPreset{{
			Preset:        provider.Preset{ID: "local", Provider: "openai", Model: "qwen", BaseURL: exampleURL, APIKeyEnv: "none", Free: true, Vision: &exampleVision},
			ContextWindow: 32768, Source: "options",
			Prices: &control.Prices{Input: 0.27, CachedInput: 0.07, Output: 1.1, Peak: &control.Prices{Input: 0.5, CachedInput: 0.1, Output: 2}},
		}}}},
	{name: "agent.commands", method: "agent/commands", from: "editor", params: noParams{},
		result: commandsResult{Commands: []commandInfo{{Name: "/mcp__docs__review", Description: "Review a change.", Source: "mcp:docs",
			Arguments: []mcp.PromptArgument{{Name: "focus", Description: "what to look at", Required: true}}}}}},
	{name: "agent.session", method: "agent/session", from: "editor",
		params: sessionStateParams{sessionRef: sessionRef{SessionID: "s1"}},
		result: sessionStateResult{SessionID: "s1", Title: "fix the parser", Mode: "plan", Provider: "openai", Model: "gpt-x",
			BaseURL: exampleURL, Plan: examplePlan}},
	{name: "agent.transcript", method: "agent/transcript", from: "editor",
		params: transcriptParams{sessionRef: sessionRef{SessionID: "s1"}, ParentToolCallID: "call_task1"},
		result: transcriptResult{SessionID: "s1", Title: "fix the parser", Mode: "default", Plan: examplePlan, Totals: exampleTotals,
			Entries: []any{
				userEntry{entryKind: entryKind{Kind: "user"}, textBody: textBody{Text: "fix it"}, CheckpointID: "cp1"},
				textEntry{entryKind: entryKind{Kind: "reasoning"}, textBody: textBody{Text: "Hmm"}},
				textEntry{entryKind: entryKind{Kind: "text"}, textBody: textBody{Text: "Done."}},
				toolCallEntry{entryKind: entryKind{Kind: "tool_call"}, toolCallBody: exampleToolCall},
				toolResultEntry{entryKind: entryKind{Kind: "tool_result"}, toolResultBody: exampleToolResult},
				compactedEntry{entryKind: entryKind{Kind: "compacted"}, Summary: "earlier: a fix"},
			}}},
	{name: "agent.checkpoints", method: "agent/checkpoints", from: "editor",
		params: checkpointsParams{sessionRef: sessionRef{SessionID: "s1"}},
		result: checkpointsResult{Checkpoints: []checkpointInfo{{CheckpointID: "cp1", Prompt: "fix it", CreatedAt: exampleTime,
			Files: []string{"main.go"}}}}},
	{name: "agent.rewind", method: "agent/rewind", from: "editor",
		params: rewindParams{sessionRef: sessionRef{SessionID: "s1"}, CheckpointID: "cp1", RestoreFiles: true, TruncateConversation: true},
		result: rewindResult{Restored: []restoredFile{{Path: "main.go", Action: "restored"}},
			Conflicts: []fileConflict{{Path: "util.go", Reason: "changed since"}}, DroppedMessages: 4, DroppedCheckpoints: 1}},

	{name: "agent.update.text", method: "agent/update", from: "daemon",
		params: textUpdate{updateHeader: exampleHeader("text"), textBody: textBody{Text: "Hello"}}},
	{name: "agent.update.reasoning", method: "agent/update", from: "daemon",
		params: textUpdate{updateHeader: exampleHeader("reasoning"), textBody: textBody{Text: "Hmm"}}},
	{name: "agent.update.tool_call", method: "agent/update", from: "daemon",
		params: toolCallUpdate{updateHeader: exampleHeader("tool_call"), toolCallBody: exampleToolCall}},
	{name: "agent.update.tool_result", method: "agent/update", from: "daemon",
		params: toolResultUpdate{updateHeader: exampleHeader("tool_result"), toolResultBody: exampleToolResult}},
	{name: "agent.update.round_end", method: "agent/update", from: "daemon",
		params: roundEndUpdate{updateHeader: exampleHeader("round_end"), StopReason: "tool_calls", Usage: exampleUsage,
			Cost: &exampleCost, CostKnown: true, Totals: exampleTotals, Spend: &exampleSpend}},
	{name: "agent.update.compacted", method: "agent/update", from: "daemon",
		params: compactedUpdate{updateHeader: exampleHeader("compacted"), BeforeTokens: 9000, AfterTokens: 1200,
			Cost: &exampleCost, CostKnown: true, Totals: exampleTotals, Spend: &exampleSpend}},
	{name: "agent.update.retry", method: "agent/update", from: "daemon",
		params: retryUpdate{updateHeader: exampleHeader("retry"), Attempt: 2, MaxAttempts: 4, DelayMs: 1500,
			Message: "model API answered 529 Overloaded"}},
	{name: "agent.update.error", method: "agent/update", from: "daemon",
		params: errorUpdate{updateHeader: exampleHeader("error"), Message: "model API answered 401"}},
	{name: "agent.update.mode", method: "agent/update", from: "daemon",
		params: modeUpdate{updateHeader: exampleHeader("mode"), Mode: "plan"}},
	{name: "agent.update.model", method: "agent/update", from: "daemon",
		params: modelUpdate{updateHeader: exampleHeader("model"), Provider: "openai", Model: "gpt-x", BaseURL: exampleURL,
			Message: "the stored model could not be reached"}},
	{name: "agent.update.queue", method: "agent/update", from: "daemon",
		params: queueUpdate{updateHeader: exampleHeader("queue"), Items: []queueItem{exampleQueued}}},
	{name: "agent.update.steer", method: "agent/update", from: "daemon",
		params: steerUpdate{updateHeader: exampleHeader("steer"), ID: "q2", Prompt: "also check the tests"}},
	{name: "agent.update.plan", method: "agent/update", from: "daemon",
		params: planUpdate{updateHeader: exampleHeader("plan"), Items: examplePlan}},
	{name: "agent.update.mention", method: "agent/update", from: "daemon",
		params: mentionUpdate{updateHeader: exampleHeader("mention"),
			MentionReport: agent.MentionReport{Path: "main.go", StartLine: 3, EndLine: 9, Status: "refused", Message: "outside the workspace"}}},

	{name: "agent.approve", method: "agent/approve", from: "daemon",
		params: approveParams{SessionID: "s1", ToolCallID: "call_1", Tool: "run_bash", Risk: "medium", Reasons: []string{"runs a command"},
			Summary: "run: go test ./...", Command: "go test ./...", VisibleCommand: "go test ./...", Path: "main.go",
			URI: "file:///w/main.go", Hunks: []reviewHunk{exampleHunk}, Rule: "run_bash: go test ./...",
			Options: []approveOption{{ID: "allow_once", Title: "Allow once", Kind: "allow_once"},
				{ID: "allow_always_user", Title: "Always allow for me", Kind: "allow_always"}}, ParentToolCallID: "call_task1"},
		result: approveAnswer{OptionID: "allow_always_user"}},
	{name: "agent.review", method: "agent/review", from: "daemon",
		params: reviewParams{SessionID: "s1", ToolCallID: "call_2", Tool: "edit_file", Summary: "edit main.go", Path: "main.go",
			URI: "file:///w/main.go", Risk: "medium", Reasons: []string{"writes a file"}, Hunks: []reviewHunk{exampleHunk}},
		result: reviewAnswer{Decision: "partial", AcceptedHunks: []int{0}, Feedback: "keep the name"}},
	{name: "agent.completionStatus", method: "agent/completionStatus", from: "daemon",
		params: completionStatusParams{URI: "file:///w/main.go", State: "error", Message: "the completion server answered 404"}},
}

var (
	exampleToolCall   = toolCallBody{ToolCallID: "call_1", Name: "read_file", Arguments: json.RawMessage(`{"path":"main.go"}`)}
	exampleToolResult = toolResultBody{ToolCallID: "call_1", Name: "read_file", Status: "completed", Output: "package main"}
	exampleMCPStatus  = mcpStatusResult{ConfigErrors: []string{".mcp.json: lint: no command"}, Servers: []mcpServerStatus{{
		ServerStatus: mcp.ServerStatus{Name: "docs", State: "ready", ProtocolVersion: "2026-07-28", Tools: 3, Error: "restarted once"},
		Source:       ".mcp.json", Trust: "untrusted", Reason: "a workspace entry", Target: "node server.js",
		Variables: []string{"DOCS_TOKEN"}, Hash: "sha256:ab12",
	}}}
)

// exampleWorktree is a session's git worktree on the wire.
var exampleWorktree = worktreeInfo{Path: "/w.worktrees/parser", Branch: "agent-lsp/parser", Base: "4b825dc642cb6eb9a060e54bf8d69288fbee4904"}

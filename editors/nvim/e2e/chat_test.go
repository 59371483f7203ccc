package e2e

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agent-lsp/agent-lsp/lsp/lsptest"
	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

type promptEnd struct {
	StopReason string `json:"stopReason"`
	Text       string `json:"text"`
	SessionID  string `json:"sessionId"`
}

// chatReport is what nvim/chat.lua writes.
type chatReport struct {
	FirstLast            promptEnd        `json:"first_last"`
	SecondLast           promptEnd        `json:"second_last"`
	StreamedWhileRunning bool             `json:"streamed_while_running"`
	Statusline           string           `json:"statusline"`
	Transcript           []transcriptLine `json:"transcript"`
	AfterPick            []transcriptLine `json:"after_pick"`
	Reopened             []transcriptLine `json:"reopened"`
	Restarted            bool             `json:"restarted"`
	ChatWidth            int              `json:"chat_width"`
	CodeWidth            int              `json:"code_width"`
	WideChatWidth        int              `json:"wide_chat_width"`
	NarrowStatusline     string           `json:"narrow_statusline"`
	InputLines           []string         `json:"input_lines"`
	Tools                []string         `json:"tools"`
	Sessions             []string         `json:"sessions"`
	SessionID            string           `json:"session_id"`
	Picked               string           `json:"picked"`
	Health               []string         `json:"health"`
}

// The chat: :AgentAsk streams reasoning (dimmed), a tool call whose line
// gets its status, and the answer; usage and cost land in the chat
// window's status line; a prompt typed into the prompt line continues the
// session; :AgentTools, :AgentSessions and :checkhealth show the daemon.
func TestChatStreamsIntoChatBuffer(t *testing.T) {
	eachNvim(t, func(t *testing.T, nvim lsptest.Nvim) {
		const (
			reasoning = "The user wants a greeting; read main.go first."
			answer    = "Hello from the fake model.\nIt read main.go, which greets wörld 🎉."
			second    = "Second answer."
		)
		model := providertest.NewServer(t, providertest.Script{
			{Reasoning: reasoning, ToolCalls: []providertest.Call{{ID: "call_read", Name: "read_file", Arguments: `{"path":"main.go"}`}},
				Usage: provider.Usage{PromptTokens: 900, CompletionTokens: 40}},
			// The answer pauses after its first line (the role chunk and two
			// 13-rune deltas), so the test sees it in the chat while the prompt
			// still runs, however fast the machine.
			{Text: answer, Usage: provider.Usage{PromptTokens: 1000, CompletionTokens: 25, CachedTokens: 896},
				Fault: &providertest.Fault{StallAfterFrames: 3, Stall: 400 * time.Millisecond}},
			{Text: second, Usage: provider.Usage{PromptTokens: 1100, CompletionTokens: 5, CachedTokens: 1024}},
		}, providertest.WithDeltaSize(13))
		root := workspace(t, map[string]string{"main.go": greetBefore})
		var rep chatReport
		scenario{nvim: nvim, script: "chat.lua", root: root, model: model, config: map[string]any{
			"first_prompt": "Say hello", "first_streamed": "Hello from the fake model.",
			"second_prompt": "And again?", "second_answer": second,
		}}.run(t, &rep)

		if rep.FirstLast.StopReason != "end_turn" || rep.FirstLast.Text != answer || !rep.StreamedWhileRunning {
			t.Errorf("first prompt ended with %+v (text seen while streaming: %v)", rep.FirstLast, rep.StreamedWhileRunning)
		}
		if rep.SecondLast.StopReason != "end_turn" || rep.SecondLast.SessionID != rep.FirstLast.SessionID || rep.FirstLast.SessionID == "" {
			t.Errorf("typed prompt ended with %+v, want session %q", rep.SecondLast, rep.FirstLast.SessionID)
		}

		// The transcript, line by line, with the groups that matter.
		want := []struct{ text, group string }{
			{"▶ Say hello", "AgentLspUser"},
			{reasoning, "AgentLspReasoning"},
			{"⚙ read_file main.go  ✓ completed", "AgentLspToolOk"},
			{"Hello from the fake model.", ""},
			{"It read main.go, which greets wörld 🎉.", ""},
			{"▶ And again?", "AgentLspUser"},
			{second, ""},
		}
		next := 0
		for _, line := range rep.Transcript {
			if next < len(want) && line.Text == want[next].text {
				if g := want[next].group; g != "" && !slices.Contains(line.Groups, g) {
					t.Errorf("transcript line %q has groups %q, want %s", line.Text, line.Groups, g)
				}
				if want[next].group == "" && len(line.Groups) > 0 {
					t.Errorf("answer line %q is highlighted %q", line.Text, line.Groups)
				}
				next++
			}
		}
		if next < len(want) {
			t.Errorf("transcript lacks %q (in order); it is:\n%s", want[next].text, transcriptText(rep))
		}
		for _, w := range []string{"in 1000 (896 cached) out 25 $0.", "session $0."} {
			if !strings.Contains(rep.Statusline, w) {
				t.Errorf("chat status line %q lacks %q", rep.Statusline, w)
			}
		}
		// A 100-column editor: the chat takes 40% (its minimum, 40), the code
		// keeps the rest; at 200 columns the chat grows to 80.
		if rep.ChatWidth != 40 || rep.CodeWidth < 55 || rep.WideChatWidth != 80 {
			t.Errorf("chat %d and code %d columns of 100, chat %d of 200", rep.ChatWidth, rep.CodeWidth, rep.WideChatWidth)
		}
		if !strings.HasPrefix(rep.NarrowStatusline, " idle │ mode default") {
			t.Errorf("a narrow chat's status line lost the state or mode: %q", rep.NarrowStatusline)
		}
		if got := strings.Join(rep.InputLines, "|"); strings.Contains(got, "And again?") {
			t.Errorf("the prompt line kept the sent text: %q", got)
		}

		// Redrawn from agent/transcript on a pick, and after the chat was wiped
		// and the daemon restarted: the same lines the live updates drew.
		if n := len(rep.AfterPick); n == 0 || !strings.HasPrefix(rep.AfterPick[n-1].Text, "— continuing session "+rep.SessionID) {
			t.Errorf("after the pick the chat does not end with the continuing line:\n%s", linesText(rep.AfterPick))
		} else {
			sameTranscript(t, "chat redrawn on pick", rep.AfterPick[:n-1], rep.Transcript)
		}
		sameTranscript(t, "chat reopened after a restart", rep.Reopened, rep.Transcript)
		if !rep.Restarted {
			t.Errorf("the daemon was not restarted before the chat was reopened")
		}

		tools := strings.Join(rep.Tools, "\n")
		for _, w := range []string{"read_file", "edit_file", "run_bash", "[builtin]"} {
			if !strings.Contains(tools, w) {
				t.Errorf(":AgentTools buffer lacks %q:\n%s", w, tools)
			}
		}
		if len(rep.Sessions) != 1 || !strings.Contains(rep.Sessions[0], "Say hello") || rep.Picked != rep.SessionID {
			t.Errorf(":AgentSessions offered %q, picked %q, current %q", rep.Sessions, rep.Picked, rep.SessionID)
		}
		health := strings.Join(rep.Health, "\n")
		for _, w := range []string{"binary: " + daemonBinary, "version: agent-lsp", "provider key: none needed", "answers:"} {
			if !strings.Contains(health, w) {
				t.Errorf(":checkhealth agent_lsp lacks %q:\n%s", w, health)
			}
		}
		if strings.Contains(health, "ERROR") {
			t.Errorf(":checkhealth agent_lsp reports an error:\n%s", health)
		}

		// The second model call answered the tool call of the first.
		msgs := requestMessages(t, model, 1)
		if tool := msgs[len(msgs)-1]; tool.Role != "tool" || tool.ToolCallID != "call_read" || !strings.Contains(tool.text(), "func greet") {
			t.Errorf("tool result the model read = %+v", tool)
		}
	})
}

// sameTranscript fails unless got has want's lines, in order, each with
// the groups want's line has (a redraw may stack a group twice).
func sameTranscript(t *testing.T, what string, got, want []transcriptLine) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d lines, want %d:\n%s\nwant:\n%s", what, len(got), len(want), linesText(got), linesText(want))
		return
	}
	for i := range want {
		if got[i].Text != want[i].Text {
			t.Errorf("%s: line %d = %q, want %q", what, i, got[i].Text, want[i].Text)
		}
		for _, g := range want[i].Groups {
			if !slices.Contains(got[i].Groups, g) {
				t.Errorf("%s: line %q has groups %q, want %s", what, got[i].Text, got[i].Groups, g)
			}
		}
	}
}

func transcriptText(rep chatReport) string { return linesText(rep.Transcript) }

func linesText(lines []transcriptLine) string {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l.Text + "   " + strings.Join(l.Groups, ",") + "\n")
	}
	return b.String()
}

package lsp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agent-lsp/agent-lsp/internal/await"
	"github.com/agent-lsp/agent-lsp/lsp/lsptest"
	"github.com/agent-lsp/agent-lsp/provider/anthropic"
	"github.com/agent-lsp/agent-lsp/provider/openai"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// recordHook is a hook that appends its input, one line, to the
// project's events.jsonl, then runs then.
func recordHook(matcher, then string) map[string]any {
	cmd := `printf '%s\n' "$(cat)" >> "$CLAUDE_PROJECT_DIR/events.jsonl"` // one write: a hook killed later leaves a whole line
	if then != "" {
		cmd += "; " + then
	}
	return map[string]any{"matcher": matcher, "hooks": []any{map[string]any{"type": "command", "command": cmd}}}
}

// hookInputs are the inputs the hooks recorded in root's events.jsonl.
func hookInputs(t *testing.T, root string) []map[string]any {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, "events.jsonl"))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if line == "" {
			continue
		}
		var in map[string]any
		if err := json.Unmarshal([]byte(line), &in); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		out = append(out, in)
	}
	return out
}

// eventsOf names each input by its event and its event's own field
// (source, reason, trigger and instructions, notification_type).
func eventsOf(ins []map[string]any) []string {
	var out []string
	for _, in := range ins {
		e := fmt.Sprint(in["hook_event_name"])
		for _, k := range []string{"source", "reason", "trigger", "custom_instructions", "notification_type", "agent_type"} {
			if v, ok := in[k]; ok && v != "" {
				e += " " + fmt.Sprint(v)
			}
		}
		out = append(out, e)
	}
	return out
}

// A session's life through the daemon, both dialects: SessionStart at the
// first prompt (its stdout joins the prompt), PreCompact with /compact's
// instructions (which the summary call reads too), SessionStart "compact"
// at the next prompt, /clear's SessionEnd "clear" and SessionStart
// "clear", and SessionEnd "other" when the daemon shuts down.
func TestSessionLifecycleHooksThroughTheDaemon(t *testing.T) {
	hooks := map[string]any{
		"SessionStart": []any{recordHook("", `echo "context for $(sed -n 's/.*"source":"\([a-z]*\)".*/\1/p' "$CLAUDE_PROJECT_DIR/events.jsonl" | tail -1)"`)},
		"SessionEnd":   []any{recordHook("", "")},
		"PreCompact":   []any{recordHook("manual", "")},
	}
	for _, dialect := range []string{openai.Name, anthropic.Name} {
		t.Run(dialect, func(t *testing.T) {
			summaryReadsInstructions := summaryAsks("keep the pangram")
			s := start(t, providertest.Script{
				{ToolCalls: []providertest.Call{{ID: "call_big", Name: "read_file", Arguments: `{"path":"big.txt"}`}}},
				{Text: "big.txt lists 300 lines."},
				{Text: "ok."},
				{Text: "SUMMARY-MARKER", Check: summaryReadsInstructions},
				{Text: "after compaction"},
				{Text: "after clear"},
			}, setupOptions{dialect: dialect, caps: fullCaps, files: map[string]string{"big.txt": bigFile()}})
			s.initialize(map[string]any{"keep": 2, "hooks": hooks})
			id := s.prompt(map[string]any{"prompt": "What is in big.txt?"}).SessionID
			s.prompt(map[string]any{"sessionId": id, "prompt": "Thanks."})
			if r := s.prompt(map[string]any{"sessionId": id, "prompt": "/compact keep the pangram"}); r.StopReason != "end_turn" {
				t.Fatalf("/compact: %+v", r)
			}
			s.prompt(map[string]any{"sessionId": id, "prompt": "Go on."})
			if r := s.prompt(map[string]any{"sessionId": id, "prompt": "/clear"}); r.StopReason != "end_turn" {
				t.Fatalf("/clear: %+v", r)
			}
			s.prompt(map[string]any{"sessionId": id, "prompt": "Start again."})
			s.stop()

			want := []string{"SessionStart startup", "PreCompact manual keep the pangram", "SessionStart compact",
				"SessionEnd clear", "SessionStart clear", "SessionEnd other"}
			ins := hookInputs(t, s.root)
			if got := eventsOf(ins); strings.Join(got, "; ") != strings.Join(want, "; ") {
				t.Errorf("hooks ran for\n%q\nwant\n%q", got, want)
			}
			for _, in := range ins {
				if in["session_id"] != id || in["cwd"] != s.root {
					t.Errorf("input %v: want session %s, cwd %s", in, id, s.root)
				}
			}
			reqs := s.model.Requests()
			if len(reqs) != 6 {
				t.Fatalf("%d requests", len(reqs))
			}
			for i, rq := range reqs {
				if rq.Rejected != "" {
					t.Errorf("request %d refused by the strict fake: %s", i, rq.Rejected)
				}
			}
			for i, want := range map[int]string{0: "context for startup", 4: "context for compact", 5: "context for clear"} {
				if !strings.Contains(string(reqs[i].Body), "[session start context from a hook]\\n"+want) {
					t.Errorf("request %d lacks the SessionStart context %q:\n%.600s", i, want, reqs[i].Body)
				}
			}
		})
	}
}

// A task subagent's end asks the SubagentStop hooks (not Stop): exit 2
// sends the child on with the reason as its next user message, and a hook
// that always blocks is bounded (three times, as Stop), both dialects.
func TestSubagentStopHookThroughTheDaemon(t *testing.T) {
	hooks := map[string]any{
		"SubagentStop": []any{recordHook("general-purpose", `echo "run the tests" >&2; exit 2`)},
		"Stop":         []any{recordHook("", "")},
	}
	for _, dialect := range []string{openai.Name, anthropic.Name} {
		t.Run(dialect, func(t *testing.T) {
			s := start(t, providertest.Script{
				{ToolCalls: []providertest.Call{{ID: "call_t1", Name: "task", Arguments: `{"description":"check","prompt":"check the parser"}`}}},
				{Text: "child: looked"},
				{Text: "child: tests one"},
				{Text: "child: tests two"},
				{Text: "child: tests three"},
				{Text: "Parent done."},
			}, setupOptions{dialect: dialect, caps: fullCaps, autoApprove: true})
			s.initialize(map[string]any{"hooks": hooks})
			r := s.prompt(map[string]any{"prompt": "Check the parser with a subagent."})
			if r.StopReason != "end_turn" || r.Text != "Parent done." {
				t.Fatalf("prompt: %+v", r)
			}
			reqs := s.model.Requests()
			if len(reqs) != 6 {
				t.Fatalf("%d requests, want 6", len(reqs))
			}
			for i := 2; i <= 4; i++ {
				if body := string(reqs[i].Body); !strings.Contains(body, "[a SubagentStop hook says the task is not done] run the tests") ||
					!strings.Contains(body, "check the parser") {
					t.Errorf("child request %d lacks the hook's reason:\n%.800s", i, body)
				}
			}
			if body := string(reqs[5].Body); !strings.Contains(body, "child: tests three") || strings.Contains(body, "hook says") {
				t.Errorf("the parent did not get the child's last answer alone:\n%s", body)
			}
			ins := hookInputs(t, s.root)
			got := eventsOf(ins)
			want := []string{"SubagentStop general-purpose", "SubagentStop general-purpose", "SubagentStop general-purpose", "Stop"}
			if strings.Join(got, "; ") != strings.Join(want, "; ") {
				t.Fatalf("hooks ran for %q, want %q", got, want)
			}
			for i, last := range []string{"child: looked", "child: tests one", "child: tests two"} {
				if ins[i]["session_id"] != r.SessionID || ins[i]["agent_id"] == "" || ins[i]["agent_id"] == r.SessionID ||
					ins[i]["last_assistant_message"] != last || ins[i]["stop_hook_active"] != (i > 0) {
					t.Errorf("SubagentStop input %d: %v", i, ins[i])
				}
			}
		})
	}
}

// While a permission question is open, the Notification hooks run with
// its message (notification_type permission_prompt); a hook that is still
// running when the user answers is stopped, so it delays nothing.
func TestNotificationHookOnAPermissionQuestion(t *testing.T) {
	hooks := map[string]any{"Notification": []any{recordHook("permission_prompt", "sleep 300")}}
	for _, dialect := range []string{openai.Name, anthropic.Name} {
		t.Run(dialect, func(t *testing.T) {
			var root string
			told := make(chan bool, 1) // whether the hook had run when the user answered
			approve := func(ctx context.Context, p lsptest.ApproveParams) (*lsptest.ApproveAnswer, error) {
				// The user answers once the hook told them (or gives up).
				told <- await.Polled(10*time.Second, func() bool {
					data, _ := os.ReadFile(filepath.Join(root, "events.jsonl"))
					return strings.Contains(string(data), "\n")
				})
				return &lsptest.ApproveAnswer{OptionID: "allow_once"}, nil
			}
			s := start(t, bashScript("echo hi > hi.txt"), setupOptions{dialect: dialect, caps: approveCaps,
				handlers: lsptest.Handlers{Approve: approve}})
			root = s.root
			s.initialize(map[string]any{"hooks": hooks})
			begun := time.Now()
			if r := s.prompt(map[string]any{"prompt": "Say hi."}); r.StopReason != "end_turn" {
				t.Fatalf("prompt: %+v", r)
			}
			if !await.Event(t, told, "the approval") {
				t.Error("the Notification hook did not run while the question was open")
			}
			if took := time.Since(begun); took > 60*time.Second {
				t.Errorf("the prompt waited on the notification hook: %s", took)
			}
			if _, err := os.Stat(filepath.Join(s.root, "hi.txt")); err != nil {
				t.Errorf("the approved command did not run: %v", err)
			}
			ins := hookInputs(t, s.root)
			if len(ins) != 1 || ins[0]["hook_event_name"] != "Notification" || ins[0]["notification_type"] != "permission_prompt" ||
				!strings.HasPrefix(fmt.Sprint(ins[0]["message"]), "agent-lsp needs your permission to use run_bash: ") ||
				!strings.Contains(fmt.Sprint(ins[0]["message"]), "echo hi > hi.txt") {
				t.Errorf("inputs %v", ins)
			}
		})
	}
}

// When a prompt has ended and no other started for a while, the
// Notification hooks hear the agent waits (idle_prompt, as Claude Code
// after 60 s; 300 ms here), once.
func TestIdleNotificationHook(t *testing.T) {
	hooks := map[string]any{"Notification": []any{recordHook("idle_prompt", "")}}
	s := start(t, providertest.Script{{Text: "Hi."}}, setupOptions{caps: fullCaps, idleNotification: 300 * time.Millisecond})
	s.initialize(map[string]any{"hooks": hooks})
	id := s.prompt(map[string]any{"prompt": "Hello."}).SessionID
	await.Poll(t, await.Long, "the idle notification", func() bool { return len(hookInputs(t, s.root)) > 0 })
	s.stop()
	ins := hookInputs(t, s.root)
	if len(ins) != 1 || ins[0]["notification_type"] != "idle_prompt" || ins[0]["message"] != "agent-lsp is waiting for your input" ||
		ins[0]["session_id"] != id {
		t.Errorf("inputs %v", ins)
	}
}

// agent/compact's instructions reach the summary call and the PreCompact
// hooks, as /compact's argument does (both dialects).
func TestCompactInstructionsThroughAgentCompact(t *testing.T) {
	hooks := map[string]any{"PreCompact": []any{recordHook("", "")}}
	for _, dialect := range []string{openai.Name, anthropic.Name} {
		t.Run(dialect, func(t *testing.T) {
			summaryReadsInstructions := summaryAsks("keep the line count")
			s := start(t, providertest.Script{
				{ToolCalls: []providertest.Call{{ID: "call_big", Name: "read_file", Arguments: `{"path":"big.txt"}`}}},
				{Text: "big.txt lists 300 lines."},
				{Text: "ok."},
				{Text: "SUMMARY-MARKER", Check: summaryReadsInstructions},
			}, setupOptions{dialect: dialect, caps: fullCaps, files: map[string]string{"big.txt": bigFile()}})
			s.initialize(map[string]any{"keep": 2, "hooks": hooks})
			id := s.prompt(map[string]any{"prompt": "What is in big.txt?"}).SessionID
			s.prompt(map[string]any{"sessionId": id, "prompt": "Thanks."})
			var res compactResult
			s.call("agent/compact", map[string]any{"sessionId": id, "instructions": "keep the line count"}, &res)
			if res.Summarised == 0 || res.Error != "" {
				t.Fatalf("agent/compact = %+v", res)
			}
			if got := eventsOf(hookInputs(t, s.root)); strings.Join(got, "; ") != "PreCompact manual keep the line count" {
				t.Errorf("hooks ran for %q", got)
			}
		})
	}
}

// Hung SessionEnd hooks (two, asking for 600 s) do not hold the daemon's
// exit beyond their shared bound (1.5 s), with three sessions ending at
// once; the time is logged beside a daemon without hooks.
func TestHungSessionEndHooksDoNotHoldShutdown(t *testing.T) {
	hung := map[string]any{"SessionEnd": []any{map[string]any{"hooks": []any{
		map[string]any{"type": "command", "command": "sleep 300", "timeout": 600},
		map[string]any{"type": "command", "command": "sleep 300", "timeout": 600}}}}}
	stopTime := func(hooks map[string]any) time.Duration {
		s := start(t, providertest.Script{{Text: "a"}, {Text: "b"}, {Text: "c"}}, setupOptions{caps: fullCaps})
		s.initialize(map[string]any{"hooks": hooks})
		for range 3 {
			s.prompt(map[string]any{"prompt": "Hi."})
		}
		begun := time.Now()
		s.stop()
		return time.Since(begun)
	}
	without := stopTime(nil)
	with := stopTime(hung)
	t.Logf("daemon exit with 3 sessions: %s without hooks, %s with two hung SessionEnd hooks each", without, with)
	if with > 1500*time.Millisecond+without+3*time.Second {
		t.Errorf("the hung SessionEnd hooks held the exit %s", with)
	}
}

// summaryAsks checks that a summary request carries the user's
// instructions for it.
func summaryAsks(instructions string) func(providertest.Received) error {
	return func(r providertest.Received) error {
		if !strings.Contains(string(r.Body), "The user's instructions for this summary: "+instructions) {
			return fmt.Errorf("the summary request lacks the instructions %q", instructions)
		}
		return nil
	}
}

package hooks

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agent-lsp/agent-lsp/internal/await"
)

// inputs reads the JSON lines hooks appended to root/name.
func inputs(t *testing.T, root, name string) []map[string]any {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, name))
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
			t.Fatalf("%s: %v", line, err)
		}
		out = append(out, in)
	}
	return out
}

// record appends a hook's input, one line, to name in the project.
func record(name string) string {
	return `printf '%s\\n' \"$(cat)\" >> \"$CLAUDE_PROJECT_DIR/` + name + `\"`
}

// The lifecycle events take Claude Code's input, and their matchers match
// what Claude Code's do: SessionStart's source, SessionEnd's reason,
// PreCompact's trigger, Notification's notification_type.
func TestLifecycleEventsInputAndMatchers(t *testing.T) {
	r, root := runnerFor(t, `{
		"SessionStart": [{"matcher": "clear|compact", "hooks": [{"type": "command", "command": "`+record("start.jsonl")+`; echo '{\"hookSpecificOutput\":{\"additionalContext\":\"fresh start\"}}'"}]}],
		"SessionEnd": [{"matcher": "prompt_input_exit", "hooks": [{"type": "command", "command": "`+record("end.jsonl")+`"}]}],
		"PreCompact": [{"matcher": "manual", "hooks": [{"type": "command", "command": "`+record("compact.jsonl")+`"}]}],
		"Notification": [{"matcher": "permission_prompt", "hooks": [{"type": "command", "command": "`+record("notify.jsonl")+`; echo '{\"systemMessage\":\"pinged\"}'"}]}]
	}`)
	var told []string
	r.Notice = func(m string) { told = append(told, m) }
	ctx := context.Background()
	if got := r.SessionStart(ctx, "s1", SourceStartup); got != "" {
		t.Errorf("a clear|compact hook ran at startup: %q", got)
	}
	if got := r.SessionStart(ctx, "s1", SourceCompact); got != "fresh start" {
		t.Errorf("compact: %q", got)
	}
	r.SessionEnd(ctx, "s1", EndOther)
	r.SessionEnd(ctx, "s1", EndPromptExit)
	r.PreCompact(ctx, "s1", "auto", "")
	r.PreCompact(ctx, "s1", "manual", "keep the parser notes")
	r.Notify(ctx, "s1", NotifyIdle, "waiting")
	r.Notify(ctx, "s1", NotifyPermission, "agent-lsp needs your permission to use run_bash: run: make")

	want := map[string][]map[string]any{
		"start.jsonl":   {{"hook_event_name": "SessionStart", "source": "compact", "session_id": "s1", "cwd": root}},
		"end.jsonl":     {{"hook_event_name": "SessionEnd", "reason": "prompt_input_exit", "session_id": "s1"}},
		"compact.jsonl": {{"hook_event_name": "PreCompact", "trigger": "manual", "custom_instructions": "keep the parser notes"}},
		"notify.jsonl": {{"hook_event_name": "Notification", "notification_type": "permission_prompt",
			"message": "agent-lsp needs your permission to use run_bash: run: make", "transcript_path": ""}},
	}
	for file, ins := range want {
		got := inputs(t, root, file)
		if len(got) != len(ins) {
			t.Errorf("%s: %d runs, want %d: %v", file, len(got), len(ins), got)
			continue
		}
		for i, fields := range ins {
			for k, v := range fields {
				if got[i][k] != v {
					t.Errorf("%s[%d].%s = %v, want %v", file, i, k, got[i][k], v)
				}
			}
		}
	}
	if len(told) != 1 || told[0] != "pinged" {
		t.Errorf("told %q", told)
	}
}

// SubagentStop speaks as Stop does, for the subagent: exit 2 or a block
// sends it on with the reason; its input names the subagent; its matcher
// matches the subagent's type.
func TestSubagentStop(t *testing.T) {
	r, root := runnerFor(t, `{"SubagentStop": [
		{"matcher": "general-purpose", "hooks": [{"type": "command", "command": "`+record("sub.jsonl")+`; grep -q '\"stop_hook_active\":true' $CLAUDE_PROJECT_DIR/sub.jsonl || { echo 'run the tests' >&2; exit 2; }"}]},
		{"matcher": "reviewer", "hooks": [{"type": "command", "command": "echo '{\"decision\":\"block\",\"reason\":\"cite line numbers\"}'"}]}
	]}`)
	ctx := context.Background()
	if got := r.SubagentStop(ctx, "parent", "child-1", "general-purpose", "All done.", false); got != "run the tests" {
		t.Errorf("first stop: %q", got)
	}
	if got := r.SubagentStop(ctx, "parent", "child-1", "general-purpose", "Tests pass.", true); got != "" {
		t.Errorf("second stop: %q", got)
	}
	if got := r.SubagentStop(ctx, "parent", "child-2", "reviewer", "Looks fine.", false); got != "cite line numbers" {
		t.Errorf("reviewer: %q", got)
	}
	if got := r.Stop(ctx, "parent", false); got != "" {
		t.Errorf("a SubagentStop hook answered Stop: %q", got)
	}
	ins := inputs(t, root, "sub.jsonl")
	if len(ins) != 2 || ins[0]["hook_event_name"] != "SubagentStop" || ins[0]["session_id"] != "parent" ||
		ins[0]["agent_id"] != "child-1" || ins[0]["agent_type"] != "general-purpose" ||
		ins[0]["last_assistant_message"] != "All done." || ins[0]["stop_hook_active"] != false || ins[1]["stop_hook_active"] != true {
		t.Errorf("inputs %v", ins)
	}
}

// A SessionEnd hook that hangs, whatever timeout it asks for, is killed
// with its process group after SessionEndTimeout, and the hooks after it
// do not start: the end is not held.
func TestSessionEndIsBounded(t *testing.T) {
	r, root := runnerFor(t, `{"SessionEnd": [{"hooks": [{"type": "command", "timeout": 600,
		"command": "sleep 300 & echo $! > \"$CLAUDE_PROJECT_DIR/child.pid\"; wait"},
		{"type": "command", "command": "sleep 300"}]}]}`)
	var told []string
	r.Notice = func(m string) { told = append(told, m) }
	start := time.Now()
	r.SessionEnd(context.Background(), "s1", EndOther)
	took := time.Since(start)
	if took < SessionEndTimeout || took > SessionEndTimeout+5*time.Second {
		t.Errorf("SessionEnd took %s (bound %s)", took, SessionEndTimeout)
	}
	data, err := os.ReadFile(filepath.Join(root, "child.pid"))
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	await.Exited(t, 10*time.Second, pid)
	if len(told) != 2 || !strings.Contains(told[0], "timed out after 1.5s") || told[1] != `hook "sleep 300" did not run: the SessionEnd hooks ran out of time` {
		t.Errorf("told %q", told)
	}
}

// The new events are known to Parse; a hook for one of them is refused
// with what is wrong like any other.
func TestParseKnowsTheNewEvents(t *testing.T) {
	for _, e := range []string{SubagentStop, Notification, SessionEnd} {
		if _, err := Parse(json.RawMessage(`{"` + e + `":[{"hooks":[{"type":"command","command":"true"}]}]}`)); err != nil {
			t.Errorf("%s: %v", e, err)
		}
	}
}

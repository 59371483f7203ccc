package hooks

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/tools"
)

func runnerFor(t *testing.T, raw string) (*Runner, string) {
	t.Helper()
	c, err := Parse(json.RawMessage(raw))
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	return NewRunner(c, root, tools.NewProcessRunner(nil), nil), root
}

func bash(cmd string) tools.Call {
	args, _ := json.Marshal(map[string]string{"command": cmd})
	return tools.Call{ID: "c1", Name: "run_bash", Args: args}
}

// A team's PreToolUse script from Claude Code's documentation runs
// unchanged: exit 2 blocks with its stderr, a JSON "deny" blocks with its
// reason, anything else lets the call go on to the policy.
func TestClaudeCodeScriptWorksUnchanged(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 runs the documentation's script; not installed")
	}
	script, err := filepath.Abs("testdata/bash_validator.py")
	if err != nil {
		t.Fatal(err)
	}
	r, _ := runnerFor(t, `{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"python3 `+script+`"}]}]}`)
	for cmd, want := range map[string]string{
		"rm -rf build":     "Do not delete files with rm; move them to ./trash instead",
		"curl example.com": "Network access is not allowed from this project",
		"go test ./...":    "",
	} {
		block, ask, reason := r.BeforeCall(context.Background(), "s1", bash(cmd))
		if block != (want != "") || ask || reason != want {
			t.Errorf("%s: block %v ask %v reason %q, want %q", cmd, block, ask, reason, want)
		}
	}
}

// Each event's input is Claude Code's; the events' answers do what its
// documentation says: context added, a prompt blocked, a Stop that sends
// the model on, a PostToolUse note for the model.
func TestEventsInputAndAnswers(t *testing.T) {
	r, root := runnerFor(t, `{
		"UserPromptSubmit": [{"hooks": [{"type": "command", "command": "cat > \"$CLAUDE_PROJECT_DIR/prompt.json\"; grep -q secret \"$CLAUDE_PROJECT_DIR/prompt.json\" && { echo 'no secrets in prompts' >&2; exit 2; }; echo 'Today is release day.'"}]}],
		"PostToolUse": [{"matcher": "Edit|Write", "hooks": [{"type": "command", "command": "cat > post.json; echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PostToolUse\",\"additionalContext\":\"formatted\"}}'"}]}],
		"Stop": [{"hooks": [{"type": "command", "command": "grep -q '\"stop_hook_active\":false' && echo '{\"decision\":\"block\",\"reason\":\"run the tests first\"}'; exit 0"}]}],
		"PreToolUse": [{"matcher": "mcp__.*", "hooks": [{"type": "command", "command": "echo '{\"hookSpecificOutput\":{\"permissionDecision\":\"ask\",\"permissionDecisionReason\":\"external tool\"}}'"}]}]
	}`)
	ctx := context.Background()
	block, _, extra := r.PromptSubmit(ctx, "s1", "fix the bug")
	if block || extra != "Today is release day." {
		t.Errorf("prompt: block %v, context %q", block, extra)
	}
	var in map[string]any
	data, _ := os.ReadFile(filepath.Join(root, "prompt.json"))
	if json.Unmarshal(data, &in) != nil || in["hook_event_name"] != "UserPromptSubmit" || in["prompt"] != "fix the bug" || in["session_id"] != "s1" || in["cwd"] != root {
		t.Errorf("input %s", data)
	}
	if block, reason, _ := r.PromptSubmit(ctx, "s1", "my secret is x"); !block || reason != "no secrets in prompts" {
		t.Errorf("blocked prompt: %v %q", block, reason)
	}

	args, _ := json.Marshal(map[string]string{"path": "a.go", "old_string": "x", "new_string": "y"})
	edit := tools.Call{ID: "c2", Name: "edit_file", Args: args}
	if note := r.AfterCall(ctx, "s1", edit, tools.Outcome{Call: edit, Status: tools.StatusCompleted, Output: "edited"}); note != "formatted" {
		t.Errorf("post: %q", note)
	}
	data, _ = os.ReadFile(filepath.Join(root, "post.json"))
	if !strings.Contains(string(data), `"tool_name":"Edit"`) || !strings.Contains(string(data), `"file_path":"`+filepath.Join(root, "a.go")+`"`) {
		t.Errorf("post input %s", data)
	}
	if note := r.AfterCall(ctx, "s1", bash("ls"), tools.Outcome{}); note != "" {
		t.Errorf("a Bash call matched Edit|Write: %q", note)
	}
	if _, ask, reason := r.BeforeCall(ctx, "s1", tools.Call{Name: "mcp__gh__create_issue", Args: json.RawMessage(`{}`)}); !ask || reason != "external tool" {
		t.Errorf("ask: %v %q", ask, reason)
	}
	if got := r.Stop(ctx, "s1", false); got != "run the tests first" {
		t.Errorf("stop: %q", got)
	}
	if got := r.Stop(ctx, "s1", true); got != "" {
		t.Errorf("stop, already continued: %q", got)
	}
}

// A hook that fails or hangs is reported and changes nothing; bad
// configurations are refused with what is wrong.
func TestFailuresAndBadConfig(t *testing.T) {
	r, _ := runnerFor(t, `{"PreToolUse":[{"hooks":[{"type":"command","command":"exit 3"},{"type":"command","command":"sleep 5","timeout":0.2}]}]}`)
	var told []string
	r.Notice = func(m string) { told = append(told, m) }
	if block, ask, _ := r.BeforeCall(context.Background(), "s1", bash("ls")); block || ask {
		t.Error("a failing hook decided")
	}
	if len(told) != 2 || !strings.Contains(told[0], `hook "exit 3" failed: exit 3`) || !strings.Contains(told[1], "timed out after 200ms") {
		t.Errorf("told %q", told)
	}
	for raw, want := range map[string]string{
		`{"OnSave":[]}`: `unknown event "OnSave"`,
		`{"Stop":[{"hooks":[{"type":"prompt","command":"x"}]}]}`:  `only "command" hooks`,
		`{"Stop":[{"hooks":[{"type":"command","command":" "}]}]}`: "no command",
		`{"PreToolUse":[{"matcher":"(","hooks":[]}]}`:             "matcher",
	} {
		if _, err := Parse(json.RawMessage(raw)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", raw, err, want)
		}
	}
}

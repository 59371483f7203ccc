package lsp_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/provider/anthropic"
	"github.com/agent-lsp/agent-lsp/provider/openai"
)

// initializationOptions.hooks: a PreToolUse hook blocks `rm` and the model
// reads its reason; the command never runs (both dialects).
func TestPreToolUseHookBlocksThroughTheDaemon(t *testing.T) {
	hooks := map[string]any{"PreToolUse": []any{map[string]any{"matcher": "Bash", "hooks": []any{map[string]any{
		"type": "command", "command": `grep -q '"command":"rm ' && { echo "use the trash, not rm" >&2; exit 2; }; exit 0`}}}}}
	for _, dialect := range []string{openai.Name, anthropic.Name} {
		t.Run(dialect, func(t *testing.T) {
			s := start(t, bashScript("rm keep.txt"), setupOptions{dialect: dialect, caps: fullCaps, autoApprove: true,
				files: map[string]string{"keep.txt": "precious\n"}})
			s.initialize(map[string]any{"hooks": hooks})
			if r := s.prompt(map[string]any{"prompt": "Clean up."}); r.StopReason != "end_turn" {
				t.Fatalf("prompt: %+v", r)
			}
			if _, err := os.Stat(filepath.Join(s.root, "keep.txt")); err != nil {
				t.Errorf("the blocked command ran: %v", err)
			}
			if body := string(s.model.Requests()[1].Body); !strings.Contains(body, "blocked by a hook: use the trash, not rm") {
				t.Errorf("the model did not read the hook's reason:\n%s", body)
			}
		})
	}
}

func TestBadHooksFailInitialize(t *testing.T) {
	s := start(t, nil, setupOptions{caps: fullCaps})
	_, err := s.ed.Initialize(ctx(t), s.root, s.caps, map[string]any{"hooks": map[string]any{"OnSave": []any{}}})
	if err == nil || !strings.Contains(err.Error(), `unknown event "OnSave"`) {
		t.Errorf("initialize: %v", err)
	}
}

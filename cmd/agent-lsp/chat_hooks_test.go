package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// --settings: a PreToolUse hook blocks `rm` with a reason the model reads,
// and a PostToolUse formatter (gofmt) rewrites the file the model wrote,
// its note reaching the model (both dialects).
func TestChatHooks(t *testing.T) {
	gofmt, err := exec.LookPath("gofmt")
	if err != nil {
		t.Skip("gofmt is the formatter; not on PATH")
	}
	settings := map[string]any{"hooks": map[string]any{
		"PreToolUse": []any{map[string]any{"matcher": "Bash", "hooks": []any{map[string]any{"type": "command",
			"command": `grep -q '"command":"rm ' && { echo "use the trash, not rm" >&2; exit 2; }; exit 0`}}}},
		"PostToolUse": []any{map[string]any{"matcher": "Write|Edit", "hooks": []any{map[string]any{"type": "command",
			"command": `f=$(sed -n 's/.*"file_path":"\([^"]*\)".*/\1/p'); ` + gofmt + ` -w "$f" && echo "{\"hookSpecificOutput\":{\"hookEventName\":\"PostToolUse\",\"additionalContext\":\"gofmt ran on $(basename "$f")\"}}"`}}}},
	}}
	for _, dialect := range []string{"openai", "anthropic"} {
		t.Run(dialect, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "keep.txt"), []byte("precious\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			data, _ := json.Marshal(settings)
			path := filepath.Join(t.TempDir(), "settings.json")
			if err := os.WriteFile(path, data, 0o600); err != nil {
				t.Fatal(err)
			}
			write, _ := json.Marshal(map[string]string{"path": "main.go", "content": "package main\nfunc main(){\nprintln( 1 )}\n"})
			rm, _ := json.Marshal(map[string]string{"command": "rm keep.txt"})
			srv := providertest.NewServer(t, providertest.Script{
				{ToolCalls: []providertest.Call{{ID: "call_rm", Name: "run_bash", Arguments: string(rm)}}},
				{ToolCalls: []providertest.Call{{ID: "call_write", Name: "write_file", Arguments: string(write)}}},
				{Text: "Done."},
			}, providertest.WithAPIKey("k-test"))
			t.Setenv(testKeyEnv, "k-test")
			code, stdout, stderr := runChatCmd(t, "", "--provider", dialect, "--base-url", baseURL(srv, dialect), "--api-key-env", testKeyEnv,
				"--dir", dir, "--no-save", "--yes", "--settings", path, "-p", "Tidy up.")
			if code != 0 {
				t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
			}
			if _, err := os.Stat(filepath.Join(dir, "keep.txt")); err != nil {
				t.Errorf("the blocked rm ran: %v", err)
			}
			got, _ := os.ReadFile(filepath.Join(dir, "main.go"))
			if string(got) != "package main\n\nfunc main() {\n\tprintln(1)\n}\n" {
				t.Errorf("the formatter's output did not land:\n%s", got)
			}
			reqs := srv.Requests()
			if body := string(reqs[1].Body); !strings.Contains(body, "blocked by a hook: use the trash, not rm") {
				t.Errorf("the model did not read the PreToolUse reason:\n%s", body)
			}
			if body := string(reqs[2].Body); !strings.Contains(body, "[hook] gofmt ran on main.go") {
				t.Errorf("the model did not read the PostToolUse note:\n%s", body)
			}
		})
	}
}

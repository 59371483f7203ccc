package agent

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/tools"
)

func TestSystemPrompt(t *testing.T) {
	tests := []struct {
		name    string
		files   map[string]string
		want    []string
		notWant []string
	}{
		{
			name:    "no instruction file",
			want:    []string{"read_file", "edit_file", "write_file", "glob", "grep", "run_bash", "OS: linux", "Shell: /bin/bash", "relative to the workspace root"},
			notWant: []string{"Project instructions"},
		},
		{
			name:  "AGENTS.md is appended",
			files: map[string]string{"AGENTS.md": "Use tabs.\n"},
			want:  []string{"Project instructions (AGENTS.md):\nUse tabs."},
		},
		{
			name:    "CLAUDE.md when there is no AGENTS.md",
			files:   map[string]string{"CLAUDE.md": "Run make test."},
			want:    []string{"Project instructions (CLAUDE.md):\nRun make test."},
			notWant: []string{"(AGENTS.md)"},
		},
		{
			name:    "AGENTS.md wins over CLAUDE.md",
			files:   map[string]string{"AGENTS.md": "agents rules", "CLAUDE.md": "claude rules"},
			want:    []string{"agents rules"},
			notWant: []string{"claude rules"},
		},
		{
			name:  "an empty AGENTS.md falls through to CLAUDE.md",
			files: map[string]string{"AGENTS.md": " \n", "CLAUDE.md": "claude rules"},
			want:  []string{"(CLAUDE.md):\nclaude rules"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, text := range tc.files {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			ws, err := tools.NewWorkspace(dir)
			if err != nil {
				t.Fatal(err)
			}
			p := SystemPrompt(ws, "linux", "/bin/bash")
			for _, w := range append(tc.want, "Workspace: "+ws.Roots()[0]) {
				if !strings.Contains(p, w) {
					t.Errorf("prompt lacks %q:\n%s", w, p)
				}
			}
			for _, nw := range tc.notWant {
				if strings.Contains(p, nw) {
					t.Errorf("prompt has %q:\n%s", nw, p)
				}
			}
			if again := SystemPrompt(ws, "linux", "/bin/bash"); again != p {
				t.Error("the prompt must be the same text for the same inputs (prompt cache)")
			}
		})
	}
}

// TestSystemPromptIsSmall: every round resends it.
func TestSystemPromptIsSmall(t *testing.T) {
	ws, err := tools.NewWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	p := SystemPrompt(ws, "linux", "/bin/bash")
	// The budget is for the guidance; the workspace path is the caller's.
	size := len(p) - len(ws.Roots()[0])
	t.Logf("system prompt: %d bytes without the workspace path", size)
	if size > 1536 {
		t.Errorf("system prompt is %d bytes, want ≤ 1536", size)
	}
}

func TestSystemPromptCutsHugeInstructions(t *testing.T) {
	dir := t.TempDir()
	huge := strings.Repeat("rule\n", 20000) // 100 KB
	if err := os.WriteFile(filepath.Join(dir, "AGENTS.md"), []byte(huge), 0o644); err != nil {
		t.Fatal(err)
	}
	ws, err := tools.NewWorkspace(dir)
	if err != nil {
		t.Fatal(err)
	}
	if p := SystemPrompt(ws, "linux", "sh"); len(p) > maxInstructions+4096 {
		t.Errorf("prompt is %d bytes with a 100 KB AGENTS.md, want it cut near %d", len(p), maxInstructions)
	}
}

func TestSystemPromptMultipleRoots(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	ws, err := tools.NewWorkspace(a, b)
	if err != nil {
		t.Fatal(err)
	}
	p := SystemPrompt(ws, "darwin", "zsh")
	roots := ws.Roots()
	if !strings.Contains(p, roots[0]+" (default root; also "+roots[1]+")") {
		t.Errorf("prompt must name both roots, the first as default:\n%s", p)
	}
}

func TestToolSpecsFollowRegistrationOrder(t *testing.T) {
	r := newRegistry(t, failTool, echoTool, blockTool)
	specs := ToolSpecs(r)
	if len(specs) != 3 || specs[0].Name != "fail" || specs[1].Name != "echo" || specs[2].Name != "block" {
		t.Errorf("specs = %+v", specs)
	}
	if specs[1].Description != echoTool.Description() || string(specs[1].Schema) != string(echoTool.Schema()) {
		t.Errorf("spec = %+v", specs[1])
	}
	if ToolSpecs(nil) != nil {
		t.Error("no registry, no specs")
	}
}

// TestSystemPromptSkipsInstructionsLinkedOutside: a repository's AGENTS.md
// that is a symlink to a file outside the workspace (a key, a token) must
// not put that file into the prompt sent to the model.
func TestSystemPromptSkipsInstructionsLinkedOutside(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(outside, []byte("CANARY-outside-secret"), 0o600); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(dir, "AGENTS.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "CLAUDE.md"), []byte("claude rules"), 0o644); err != nil {
		t.Fatal(err)
	}
	ws, err := tools.NewWorkspace(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	p := SystemPrompt(ws, "linux", "sh")
	if strings.Contains(p, "CANARY") {
		t.Fatalf("the prompt holds the file AGENTS.md links to outside the workspace:\n%s", p)
	}
	if !strings.Contains(p, "(CLAUDE.md):\nclaude rules") {
		t.Errorf("the prompt should fall through to CLAUDE.md:\n%s", p)
	}
}

// With the workspace at $HOME, an AGENTS.md that links to a credential
// store inside it (~/.ssh/id_rsa) is not the project's instructions
// either: it would go to the model with every request. A CLAUDE.md that
// links to AGENTS.md-style text (an ordinary file) still works.
func TestSystemPromptSkipsInstructionsLinkedToACredential(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	if err := os.MkdirAll(filepath.Join(home, ".ssh"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".ssh", "id_rsa"), []byte("CANARY-private-key"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, "rules.md"), []byte("home rules"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(".ssh/id_rsa", filepath.Join(home, "AGENTS.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("rules.md", filepath.Join(home, "CLAUDE.md")); err != nil {
		t.Fatal(err)
	}
	ws, err := tools.NewWorkspace(home)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	p := SystemPrompt(ws, "linux", "sh")
	if strings.Contains(p, "CANARY") {
		t.Fatalf("the prompt holds the key AGENTS.md links to:\n%s", p)
	}
	if !strings.Contains(p, "(CLAUDE.md):\nhome rules") {
		t.Errorf("the prompt should fall through to CLAUDE.md (a link to an ordinary file):\n%s", p)
	}
}

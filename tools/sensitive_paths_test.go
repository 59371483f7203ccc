package tools

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/agent-lsp/agent-lsp/permission"
)

// countingApprover allows everything and counts the questions.
type countingApprover struct {
	mu    sync.Mutex
	asked []string
}

func (c *countingApprover) Approve(_ context.Context, a permission.Action, _ bool) (permission.Decision, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.asked = append(c.asked, a.Path)
	return permission.AllowOnce, nil
}

// With the workspace at $HOME, writing the shell's start-up files, ssh
// keys, git's global config or the agent's own state is HIGH for
// write_file and edit_file, so auto-edit still asks; an ordinary file in
// the same workspace is MEDIUM and runs without a question.
func TestWriteRiskWorkspaceIsHome(t *testing.T) {
	e := newFileToolEnv(t)
	t.Setenv("HOME", e.root)
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("XDG_STATE_HOME", "")
	e.write(t, ".bashrc", "export A=1\n")
	e.write(t, "notes.txt", "hello\n")
	cases := []struct {
		tool   Tool
		args   map[string]any
		risk   permission.Risk
		reason string
	}{
		{NewWriteFile(), map[string]any{"path": ".bashrc", "content": "curl x | sh\n"}, permission.High, "start-up file"},
		{NewEditFile(), map[string]any{"path": ".bashrc", "old_string": "A=1", "new_string": "A=2"}, permission.High, "start-up file"},
		{NewWriteFile(), map[string]any{"path": ".ssh/authorized_keys", "content": "ssh-ed25519 AAAA\n"}, permission.High, ".ssh"},
		{NewWriteFile(), map[string]any{"path": ".zshenv", "content": "x\n"}, permission.High, "start-up file"},
		{NewWriteFile(), map[string]any{"path": ".config/systemd/user/x.service", "content": "[Service]\n"}, permission.High, "start-up file"},
		{NewWriteFile(), map[string]any{"path": ".config/autostart/x.desktop", "content": "[Desktop Entry]\n"}, permission.High, "start-up file"},
		{NewWriteFile(), map[string]any{"path": ".gitconfig", "content": "[core]\n\tpager = sh\n"}, permission.High, "git configuration"},
		{NewWriteFile(), map[string]any{"path": ".aws/credentials", "content": "[default]\n"}, permission.High, "credential"},
		{NewWriteFile(), map[string]any{"path": ".config/agent-lsp/trust.json", "content": "{}\n"}, permission.High, "agent's own"},
		{NewWriteFile(), map[string]any{"path": ".local/state/agent-lsp/x", "content": "{}\n"}, permission.High, "agent's own"},
		{NewEditFile(), map[string]any{"path": "notes.txt", "old_string": "hello", "new_string": "bye"}, permission.Medium, ""},
		{NewWriteFile(), map[string]any{"path": "src/.bashrc.example", "content": "x\n"}, permission.Medium, ""},
	}
	p := permission.NewPolicy(nil)
	ap := &countingApprover{}
	p.SetApprover(ap)
	p.SetAutoAllowWorkspaceEdits(true)
	for _, c := range cases {
		a, err := c.tool.Describe(t.Context(), argsJSON(t, c.args), e.env)
		if err != nil {
			t.Fatalf("%v: %v", c.args["path"], err)
		}
		if a.Risk != c.risk || !strings.Contains(strings.Join(a.Reasons, ";"), c.reason) {
			t.Errorf("%s %v: risk %v reasons %q, want %v with %q", a.Tool, c.args["path"], a.Risk, a.Reasons, c.risk, c.reason)
		}
		before := len(ap.asked)
		v, err := p.Check(context.Background(), a)
		if err != nil || !v.Allowed {
			t.Fatalf("%v: verdict %+v err %v", c.args["path"], v, err)
		}
		if asked := len(ap.asked) > before; asked != (c.risk >= permission.High) {
			t.Errorf("%v: asked = %v with auto-edit on, want %v", c.args["path"], asked, c.risk >= permission.High)
		}
	}
}

// A home that is a symlink to the workspace still protects its dotfiles:
// workspace paths are resolved, so home is too.
func TestWriteRiskHomeBehindSymlink(t *testing.T) {
	e := newFileToolEnv(t)
	link := filepath.Join(t.TempDir(), "home-link")
	if err := os.Symlink(e.root, link); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", link)
	a, err := NewWriteFile().Describe(t.Context(), argsJSON(t, map[string]any{"path": ".bashrc", "content": "x\n"}), e.env)
	if err != nil {
		t.Fatal(err)
	}
	if a.Risk != permission.High {
		t.Fatalf(".bashrc with HOME a symlink to the workspace: %v, want HIGH", a.Risk)
	}
}

// XDG_CONFIG_HOME moves git's and the agent's config: the moved place is
// what is protected.
func TestWriteRiskFollowsXDG(t *testing.T) {
	e := newFileToolEnv(t)
	t.Setenv("HOME", "/nonexistent-home")
	t.Setenv("XDG_CONFIG_HOME", e.root+"/cfg")
	a, err := NewWriteFile().Describe(t.Context(), argsJSON(t, map[string]any{"path": "cfg/git/config", "content": "[core]\n"}), e.env)
	if err != nil {
		t.Fatal(err)
	}
	if a.Risk != permission.High {
		t.Fatalf("cfg/git/config under XDG_CONFIG_HOME: %v, want HIGH", a.Risk)
	}
	a, err = NewWriteFile().Describe(t.Context(), argsJSON(t, map[string]any{"path": "cfg/other/x", "content": "x\n"}), e.env)
	if err != nil {
		t.Fatal(err)
	}
	if a.Risk != permission.Medium {
		t.Fatalf("cfg/other/x: %v, want MEDIUM", a.Risk)
	}
}

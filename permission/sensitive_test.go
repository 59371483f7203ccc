package permission

import (
	"strings"
	"testing"
)

// SensitivePath is what write_file and edit_file ask too: the places that
// run code, grant access or hold credentials, wherever the workspace is.
func TestSensitivePath(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", "/cfg")
	t.Setenv("XDG_STATE_HOME", "/state")
	t.Setenv("XDG_DATA_HOME", "")
	cases := []struct {
		path string
		want string // substring of why; "" = not sensitive
	}{
		{"/home/u/.bashrc", "start-up"},
		{"/home/u/.ssh/authorized_keys", "start-up"},
		{"/home/u/.config/systemd/user/x.service", "start-up"},
		{"/home/u/.local/share/systemd/user/x.timer", "start-up"},
		{"/home/u/.config/autostart/x.desktop", "start-up"},
		{"/home/u/.gitconfig", "git configuration"},
		{"/home/u/.config/git/config", "git configuration"},
		{"/home/u/.aws/credentials", "credential"},
		{"/home/u/.docker/config.json", "credential"},
		{"/home/u/.local/share/keyrings/login.keyring", "credential"},
		{"/home/u/.config/agent-lsp/trust.json", "agent's own"},
		{"/home/u/.local/state/agent-lsp/sessions/x.jsonl", "agent's own"},
		{"/cfg/git/config", "runs code later"},
		{"/cfg/agent-lsp/settings.json", "agent's own state"},
		{"/state/agent-lsp/x", "agent's own state"},
		{"/var/spool/cron/crontabs/u", "system file"},
		{"/etc/cron.d/job", "system file"},
		{"/etc/crontab", "system file"},
		{"/etc/sudoers.d/x", "system file"},
		{"/srv/repo/.git/hooks/pre-commit", "git hooks"},
		{"/srv/repo/.git/config", "git hooks"},
		{"/srv/repo/.git/modules/sub/hooks/post-checkout", "git hooks"},
		{"/srv/repo/.git/modules/sub/config", "git hooks"},
		{"/home/u/.bashrc.bak", ""},
		{"/home/u/proj/.bashrc", ""},
		{"/home/u/proj/main.go", ""},
		{"/home/u/.docker/buildx/x", ""},
		{"/home/u/.ssh-notes", ""},
		{"/srv/repo/.git/objects/ab/cdef", ""},
		{"/srv/repo/.git/COMMIT_EDITMSG", ""},
		{"/cfg/other/x", ""},
		{"relative/.bashrc", ""},
	}
	for _, c := range cases {
		why, ok := SensitivePath(c.path, "/home/u")
		if ok != (c.want != "") || !strings.Contains(why, c.want) {
			t.Errorf("SensitivePath(%q) = %q, %v; want %q", c.path, why, ok, c.want)
		}
	}
	if _, ok := SensitivePath("/home/u/.bashrc", ""); ok {
		t.Error("with home unknown, ~/.bashrc cannot be recognised by its name")
	}
	if _, ok := SensitivePath("/x/.git/hooks/h", ""); !ok {
		t.Error("git hooks are sensitive without a home")
	}
}

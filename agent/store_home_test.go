package agent

import (
	"os/user"
	"path/filepath"
	"testing"
)

// Without HOME in the environment (an editor that passes only PATH), the
// sessions still go to the account's home, found in the user database.
func TestDefaultStateDirWithoutHome(t *testing.T) {
	u, err := user.Current()
	if err != nil || u.HomeDir == "" {
		t.Skip("no user database entry here")
	}
	t.Setenv("XDG_STATE_HOME", "")
	t.Setenv("HOME", "")
	dir, err := DefaultStateDir()
	if err != nil || dir != filepath.Join(u.HomeDir, ".local", "state", "agent-lsp", "sessions") {
		t.Errorf("DefaultStateDir() = %q, %v", dir, err)
	}
}

package lsp_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// agent/newSession {worktree} in a repository another user owns is
// -32602 with git's reason (safe.directory), and nothing is made: never
// a session in a directory git would not vouch for. (As root, which git
// holds to it too; as an ordinary user agent/control/worktree's tests
// check the same.)
func TestWorktreeSessionRefusesAnotherUsersRepository(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to give the repository to another user")
	}
	s := start(t, nil, setupOptions{files: map[string]string{"a.txt": "a\n"}})
	gitInit(t, s.root)
	if err := filepath.Walk(s.root, func(p string, _ os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, 65534, 65534)
	}); err != nil {
		t.Fatal(err)
	}
	s.initialize(nil)
	err := s.ed.Call(ctx(t), "agent/newSession", map[string]any{"worktree": true}, nil)
	if err == nil || !strings.Contains(err.Error(), "-32602") && !strings.Contains(err.Error(), "invalid params") ||
		!strings.Contains(err.Error(), "owned by another user") || !strings.Contains(err.Error(), "safe.directory") {
		t.Fatalf("agent/newSession in another user's repository: %v", err)
	}
	if _, err := os.Stat(s.root + ".worktrees"); !os.IsNotExist(err) {
		t.Errorf("a worktree directory was made: %v", err)
	}
}

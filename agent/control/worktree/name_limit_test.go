package worktree_test

import (
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/agent/control/worktree"
)

func TestValidNameLength(t *testing.T) {
	if err := worktree.ValidName(strings.Repeat("a", 64)); err != nil {
		t.Errorf("64 bytes: %v", err)
	}
	for _, bad := range []string{strings.Repeat("a", 65), "", "-a", "a..b", "a.lock", "a/b"} {
		if worktree.ValidName(bad) == nil {
			t.Errorf("%q was taken", bad)
		}
	}
}

package worktree_test

import (
	"context"
	"fmt"
	"os/exec"
	"testing"

	"github.com/agent-lsp/agent-lsp/agent/control/worktree"
)

// BenchmarkCreateRemove is a worktree session's git cost: made (with its
// guard: the configuration read once per call) and removed, in a
// repository of 200 files. BenchmarkPlainGitStatus is the reference: one
// bare git process in the same repository, so that a loaded machine's
// numbers compare as a ratio.
func BenchmarkCreateRemove(b *testing.B) {
	repo := benchRepo(b)
	ctx := context.Background()
	b.ResetTimer()
	for i := range b.N {
		tree, err := worktree.Create(ctx, repo, "", fmt.Sprintf("b%d", i))
		if err != nil {
			b.Fatal(err)
		}
		if _, err := worktree.Remove(ctx, tree, false); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPlainGitStatus(b *testing.B) {
	repo := benchRepo(b)
	b.ResetTimer()
	for range b.N {
		cmd := exec.Command("git", "status", "--porcelain")
		cmd.Dir = repo
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%v: %s", err, out)
		}
	}
}

func benchRepo(b *testing.B) string {
	files := map[string]string{}
	for i := range 200 {
		files[fmt.Sprintf("pkg%d/f%d.go", i%10, i)] = fmt.Sprintf("package p\n\nconst c%d = %d\n", i, i)
	}
	return newRepoTB(b, files)
}

package worktree

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Commit commits everything the worktree holds uncommitted (untracked
// files included) on its branch, with no hook and no signing; it reports
// whether there was anything to commit. Without a configured identity
// the commit is agent-lsp's.
func (t Tree) Commit(ctx context.Context, message string) (bool, error) {
	dirty, err := t.Dirty(ctx)
	if err != nil || len(dirty) == 0 {
		return false, err
	}
	guard, err := repoGuard(ctx, t.Path)
	if err != nil {
		return false, err
	}
	if _, err := git(ctx, t.Path, guard, nil, "add", "--all"); err != nil {
		return false, err
	}
	if out, err := git(ctx, t.Path, guard, nil, "config", "--get", "user.email"); err != nil || strings.TrimSpace(string(out)) == "" {
		guard = append(guard, "-c", "user.name=agent-lsp", "-c", "user.email=agent-lsp@localhost")
	}
	if _, err := git(ctx, t.Path, guard, nil, "commit", "--quiet", "--no-verify", "--no-gpg-sign", "-m", message); err != nil {
		return false, err
	}
	return true, nil
}

// abortTimeout bounds the abort of a failed merge, which runs even when
// the merge's context ended: the checkout must not stay half merged.
const abortTimeout = 30 * time.Second

// CheckoutClean is nil when the checkout at dir has no uncommitted
// change to a tracked file, else a *DirtyError naming them.
func CheckoutClean(ctx context.Context, dir string) error {
	dirty, err := status(ctx, dir, "--untracked-files=no")
	if err != nil {
		return err
	}
	if len(dirty) > 0 {
		return &DirtyError{Dir: dir, Files: dirty}
	}
	return nil
}

// ErrMergeConflict: the branch does not merge cleanly into the checkout;
// the merge was aborted, the checkout is as it was.
var ErrMergeConflict = errors.New("merge conflict")

// Merge merges the worktree's branch into the user's checkout (a merge
// commit, no hook, no signing). The checkout must have no uncommitted
// change to a tracked file (a *DirtyError otherwise): a merge never
// touches the user's unfinished work. A merge that conflicts is aborted.
func Merge(ctx context.Context, t Tree, message string) error {
	if err := CheckoutClean(ctx, t.Repo); err != nil {
		return err
	}
	guard, err := repoGuard(ctx, t.Repo)
	if err != nil {
		return err
	}
	if out, err := git(ctx, t.Repo, guard, nil, "config", "--get", "user.email"); err != nil || strings.TrimSpace(string(out)) == "" {
		guard = append(guard, "-c", "user.name=agent-lsp", "-c", "user.email=agent-lsp@localhost")
	}
	_, err = git(ctx, t.Repo, guard, nil, "merge", "--no-ff", "--no-edit", "--no-verify", "--no-gpg-sign", "--no-stat", "-m", message, "refs/heads/"+t.Branch)
	if err == nil {
		return nil
	}
	if ctx.Err() != nil {
		return err
	}
	// A merge that stopped on conflicts is undone; one git refused before
	// it began (an untracked file in the way) has nothing to abort.
	abortCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), abortTimeout)
	defer cancel()
	_, _ = git(abortCtx, t.Repo, guard, nil, "merge", "--abort")
	return fmt.Errorf("%w: %v; the merge was aborted and your checkout is as it was (review the changes instead)", ErrMergeConflict, err)
}

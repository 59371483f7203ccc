package worktree

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// BranchPrefix starts the name of every branch a worktree session makes.
const BranchPrefix = "agent-lsp/"

// Tree is a worktree a session owns.
type Tree struct {
	Path   string // the worktree's directory
	Branch string // BranchPrefix + its name
	Base   string // the commit it was made from (the checkout's HEAD then)
	Repo   string // the top level of the user's checkout it was made from
}

// TopLevel is the top level of the work tree dir is in. A repository
// whose configuration moves its work tree elsewhere (core.worktree) is
// refused: the sessions would not work where the user is.
func TopLevel(ctx context.Context, dir string) (string, error) {
	out, err := git(ctx, dir, nil, nil, "rev-parse", "--show-toplevel")
	if err != nil {
		if ge, ok := errors.AsType[*gitError](err); ok && strings.Contains(ge.stderr, "not a git repository") {
			return "", fmt.Errorf("%w: %s", ErrNotARepository, dir)
		}
		return "", err
	}
	top := strings.TrimSuffix(string(out), "\n")
	if top == "" {
		return "", fmt.Errorf("%w: %s (a bare repository or a .git directory)", ErrNotARepository, dir)
	}
	realDir, err1 := filepath.EvalSymlinks(dir)
	realTop, err2 := filepath.EvalSymlinks(top)
	if err := errors.Join(err1, err2); err != nil {
		return "", err
	}
	if rel, err := filepath.Rel(realTop, realDir); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("the git work tree of %s is %s, elsewhere (core.worktree): refusing to work there", dir, top)
	}
	return realTop, nil
}

// DefaultDir is where the worktrees of the repository at top go unless
// configured: beside it, in <top>.worktrees.
func DefaultDir(top string) string {
	return filepath.Join(filepath.Dir(top), filepath.Base(top)+".worktrees")
}

// namePattern is a name's letters; ValidName checks the length apart: a
// bounded repetition compiles to that many copies of the class, paid at
// every start of the binary.
var namePattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// ValidName checks a worktree's name, which names its directory and its
// branch: letters, digits, '.', '_', '-', at most 64, no "..", not ending
// in ".lock" (git's ref rules).
func ValidName(name string) error {
	if len(name) > 64 || !namePattern.MatchString(name) || strings.Contains(name, "..") || strings.HasSuffix(name, ".lock") || strings.HasSuffix(name, ".") {
		return fmt.Errorf("worktree name %q: use letters, digits, '.', '_' and '-' (at most 64, starting with a letter or digit)", name)
	}
	return nil
}

// NewName is a fresh worktree name, sortable by creation time.
func NewName(now time.Time) string {
	var b [3]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
	return now.UTC().Format("20060102-150405") + "-" + hex.EncodeToString(b[:])
}

// Create makes a worktree named name of the repository that holds
// checkout, on a new branch BranchPrefix+name from the checkout's HEAD, in
// parent ("": DefaultDir; a relative one is relative to the repository's
// top level). The checkout's uncommitted changes are not in it.
func Create(ctx context.Context, checkout, parent, name string) (Tree, error) {
	if err := ValidName(name); err != nil {
		return Tree{}, err
	}
	top, err := TopLevel(ctx, checkout)
	if err != nil {
		return Tree{}, err
	}
	switch {
	case parent == "":
		parent = DefaultDir(top)
	case !filepath.IsAbs(parent):
		parent = filepath.Join(top, parent)
	}
	path := filepath.Join(filepath.Clean(parent), name)
	if rel, err := filepath.Rel(top, path); err == nil && !strings.HasPrefix(rel, "..") {
		return Tree{}, fmt.Errorf("the worktree directory %s is inside the repository's work tree %s", path, top)
	}
	if _, err := os.Lstat(path); !errors.Is(err, fs.ErrNotExist) {
		return Tree{}, fmt.Errorf("cannot make the worktree %s: it exists", path)
	}
	guard, err := repoGuard(ctx, top)
	if err != nil {
		return Tree{}, err
	}
	out, err := git(ctx, top, guard, nil, "rev-parse", "--verify", "--quiet", "HEAD^{commit}")
	if err != nil {
		return Tree{}, fmt.Errorf("the repository %s has no commit to start a worktree from", top)
	}
	base := strings.TrimSpace(string(out))
	branch := BranchPrefix + name
	if _, err := git(ctx, top, guard, nil, "rev-parse", "--verify", "--quiet", "refs/heads/"+branch); err == nil {
		return Tree{}, fmt.Errorf("the branch %s exists: choose another worktree name", branch)
	}
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return Tree{}, err
	}
	if _, err := git(ctx, top, guard, nil, "worktree", "add", "--quiet", "-b", branch, path, base); err != nil {
		return Tree{}, err
	}
	return Tree{Path: path, Branch: branch, Base: base, Repo: top}, nil
}

// RemoveResult says what Remove left.
type RemoveResult struct {
	// BranchKept: the branch has commits the checkout's HEAD has not
	// merged, so it stays (git branch -d refused).
	BranchKept bool
}

// Remove removes the worktree and, when the checkout has merged it, its
// branch. A worktree with uncommitted changes (untracked files
// included) is removed only when force says the user agreed to lose
// them; otherwise the answer is a *DirtyError.
func Remove(ctx context.Context, t Tree, force bool) (RemoveResult, error) {
	guard, err := repoGuard(ctx, t.Repo)
	if err != nil {
		return RemoveResult{}, err
	}
	if _, err := os.Lstat(t.Path); errors.Is(err, fs.ErrNotExist) {
		// Removed by hand: git only forgets it.
		if _, err := git(ctx, t.Repo, guard, nil, "worktree", "prune"); err != nil {
			return RemoveResult{}, err
		}
	} else {
		dirty, err := t.Dirty(ctx)
		if err != nil {
			return RemoveResult{}, err
		}
		if len(dirty) > 0 && !force {
			return RemoveResult{}, &DirtyError{Dir: t.Path, Files: dirty}
		}
		args := []string{"worktree", "remove"}
		if force {
			args = append(args, "--force", "--force") // twice: a locked one too
		}
		if _, err := git(ctx, t.Repo, guard, nil, append(args, t.Path)...); err != nil {
			return RemoveResult{}, err
		}
	}
	if _, err := git(ctx, t.Repo, guard, nil, "branch", "-d", "--", t.Branch); err != nil {
		return RemoveResult{BranchKept: true}, nil
	}
	return RemoveResult{}, nil
}

// DirtyError is a directory with uncommitted changes that an operation
// would lose or trample.
type DirtyError struct {
	Dir   string
	Files []string // as git status names them, relative to Dir
}

func (e *DirtyError) Error() string {
	files := e.Files
	more := ""
	if len(files) > 10 {
		files, more = files[:10], fmt.Sprintf(" and %d more", len(e.Files)-10)
	}
	return fmt.Sprintf("%s has uncommitted changes: %s%s", e.Dir, strings.Join(files, ", "), more)
}

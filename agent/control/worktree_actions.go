package control

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"

	"github.com/agent-lsp/agent-lsp/agent/control/worktree"
	"github.com/agent-lsp/agent-lsp/tools"
)

// worktreeLocks holds one lock per worktree directory: a review, a merge
// and a removal of one worktree never run at once.
var worktreeLocks sync.Map // path → *sync.Mutex

// worktreeOp is the session's worktree, locked until unlock, for an
// operation that needs the session idle: no prompt runs in it (its tools
// could be writing the files being reviewed or merged).
func (s *Session) worktreeOp() (worktree.Tree, Binding, func(), error) {
	wt := s.Worktree()
	if wt == nil || s.b.Home == nil {
		return worktree.Tree{}, Binding{}, nil, invalidf("session %q does not work in a git worktree", s.id)
	}
	home := *s.b.Home
	if home.Workspace == nil || home.Approver == nil {
		return worktree.Tree{}, Binding{}, nil, ErrNotInitialized
	}
	release, ok := s.agent.TryHold() // prompts sent meanwhile wait for it
	if !ok {
		return worktree.Tree{}, Binding{}, nil, invalidf("a prompt runs in session %q: wait for it to end or cancel it first", s.id)
	}
	m, _ := worktreeLocks.LoadOrStore(wt.Path, &sync.Mutex{})
	mu := m.(*sync.Mutex)
	mu.Lock()
	return worktree.Tree{Path: wt.Path, Branch: wt.Branch, Base: wt.Base, Repo: wt.Repo}, home, func() { mu.Unlock(); release() }, nil
}

// WorktreeMerge is what MergeWorktree did.
type WorktreeMerge struct {
	Branch    string
	Committed bool // the worktree's uncommitted changes were committed on its branch first
}

// MergeWorktree commits what the worktree holds uncommitted on its
// branch and merges the branch into the user's checkout (git merge
// --no-ff). It refuses while the checkout has uncommitted changes to
// tracked files, or unsaved editor changes (the Documents of the user's
// checkout differ from the disk) in a file the branch changes: a merge never touches the
// user's unfinished work. A merge that conflicts is aborted.
func (s *Session) MergeWorktree(ctx context.Context) (WorktreeMerge, error) {
	tree, home, unlock, err := s.worktreeOp()
	if err != nil {
		return WorktreeMerge{}, err
	}
	defer unlock()
	changes, err := tree.Changes(ctx)
	if err != nil {
		return WorktreeMerge{}, worktreeError(err)
	}
	if err := unsavedIn(ctx, home, tree, changes); err != nil {
		return WorktreeMerge{}, err
	}
	if err := worktree.CheckoutClean(ctx, tree.Repo); err != nil { // before the commit: a refused merge changes nothing
		return WorktreeMerge{}, worktreeError(err)
	}
	title := s.Title()
	if title == "" {
		title = tree.Branch
	}
	committed, err := tree.Commit(ctx, "agent-lsp: "+title)
	if err != nil {
		return WorktreeMerge{}, worktreeError(err)
	}
	if err := worktree.Merge(ctx, tree, fmt.Sprintf("Merge %s (agent-lsp session %s)", tree.Branch, s.id)); err != nil {
		return WorktreeMerge{Committed: committed}, worktreeError(err)
	}
	return WorktreeMerge{Branch: tree.Branch, Committed: committed}, nil
}

// unsavedIn refuses a merge that would change on disk a file the editor
// holds with unsaved changes.
func unsavedIn(ctx context.Context, home Binding, tree worktree.Tree, changes []worktree.Change) error {
	if home.Docs == nil {
		return nil // the disk is the text
	}
	disk := &tools.DiskDocuments{Workspace: home.Workspace}
	for _, ch := range changes {
		path := filepath.Join(tree.Repo, filepath.FromSlash(ch.Path))
		if !home.Workspace.Contains(path) {
			continue
		}
		held, err1 := home.Docs.Read(ctx, path)
		onDisk, err2 := disk.Read(ctx, path)
		if err := errors.Join(err1, err2); err != nil {
			return err
		}
		if held.Exists != onDisk.Exists || held.Text != onDisk.Text {
			return invalidf("%s has unsaved changes in the editor, and the merge changes it: save or revert it first", home.Workspace.Rel(path))
		}
	}
	return nil
}

// WorktreeRemoval is what RemoveWorktree did.
type WorktreeRemoval struct {
	Path       string
	Branch     string
	BranchKept bool // the branch has commits the checkout has not merged: it stays
}

// RemoveWorktree removes the session's worktree and closes the session
// (it stays stored, and says its worktree is gone if opened). Its
// running prompts are cancelled first. A worktree with uncommitted
// changes (untracked files included) is removed only with force, the
// user's yes to losing them: without it the answer is an ErrInvalid
// naming the files, and nothing changes.
func (s *Session) RemoveWorktree(ctx context.Context, force bool) (WorktreeRemoval, error) {
	wt := s.Worktree()
	if wt == nil {
		return WorktreeRemoval{}, invalidf("session %q does not work in a git worktree", s.id)
	}
	tree := worktree.Tree{Path: wt.Path, Branch: wt.Branch, Base: wt.Base, Repo: wt.Repo}
	if !force {
		// Asked before anything is cancelled: a refusal leaves the session as it was.
		dirty, err := tree.Dirty(ctx)
		if err != nil {
			return WorktreeRemoval{}, worktreeError(err)
		}
		if len(dirty) > 0 {
			return WorktreeRemoval{}, worktreeError(&worktree.DirtyError{Dir: tree.Path, Files: dirty})
		}
	}
	s.Cancel(errors.New("the session's worktree is being removed"))
	release, err := s.agent.Hold(ctx)
	if err != nil {
		return WorktreeRemoval{}, cancelled(err)
	}
	defer release()
	m, _ := worktreeLocks.LoadOrStore(wt.Path, &sync.Mutex{})
	mu := m.(*sync.Mutex)
	mu.Lock()
	defer mu.Unlock()
	res, err := worktree.Remove(ctx, tree, force)
	if err != nil {
		return WorktreeRemoval{}, worktreeError(err)
	}
	worktreeLocks.Delete(wt.Path) // held: no one waits on it but through this session, now closed
	_ = s.c.CloseSession(s.id)
	s.c.release(wt.Path)
	return WorktreeRemoval{Path: wt.Path, Branch: wt.Branch, BranchKept: res.BranchKept}, nil
}

package control

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/agent-lsp/agent-lsp/agent/control/worktree"
	"github.com/agent-lsp/agent-lsp/permission"
	"github.com/agent-lsp/agent-lsp/tools"
)

// ReviewTool names the action of bringing a worktree's file back: what
// an approver's question (agent/review's tool) says.
const ReviewTool = "worktree_review"

// WorktreeReview is what a review of a worktree's changes brought back
// to the user's checkout.
type WorktreeReview struct {
	Applied  []WorktreeFile // files of which hunks landed, in path order
	Rejected []string       // files the user took nothing of
	Skipped  []WorktreeSkip // files not offered, and why
}

// WorktreeFile is a file of which hunks landed.
type WorktreeFile struct {
	Path     string // relative to the user's workspace
	Hunks    int    // how many the change had
	Accepted []int  // the ids that landed; nil: all of them
}

// WorktreeSkip is a changed file the review did not offer or could not
// land.
type WorktreeSkip struct {
	Path   string
	Reason string
}

// ReviewWorktree offers the worktree's changes against its base to the
// user, file by file and hunk by hunk, through the approver of home (the
// user's checkout's binding) (a
// Reviewer reviews hunks; another approver answers for a whole file),
// and lands what was accepted in the user's checkout through home's
// Documents, all in one batch (one workspace/applyEdit: one undo). With
// all, every file is taken without asking, but for HIGH ones (protected
// or secret files), which are always asked. Where the user changed a
// file since the worktree's base, the accepted hunks are merged into
// their text; a hunk that overlaps the user's change skips the file
// (never overwrites their work). The worktree is left as it is.
func (s *Session) ReviewWorktree(ctx context.Context, all bool) (WorktreeReview, error) {
	tree, home, unlock, err := s.worktreeOp()
	if err != nil {
		return WorktreeReview{}, err
	}
	defer unlock()
	changes, err := tree.Changes(ctx)
	if err != nil {
		return WorktreeReview{}, worktreeError(err)
	}
	docs := home.Docs
	if docs == nil {
		docs = &tools.DiskDocuments{Workspace: home.Workspace}
	}
	wtDocs := &tools.DiskDocuments{Workspace: s.b.Workspace}
	var out WorktreeReview
	var edits []tools.FileEdit
	for _, ch := range changes {
		edit, file, skip, err := s.reviewFile(ctx, tree, ch, home, docs, wtDocs, all)
		switch {
		case err != nil:
			return WorktreeReview{}, err
		case skip != "":
			out.Skipped = append(out.Skipped, WorktreeSkip{Path: file.Path, Reason: skip})
		case edit == nil:
			out.Rejected = append(out.Rejected, file.Path)
		default:
			edits = append(edits, *edit)
			out.Applied = append(out.Applied, file)
		}
	}
	if len(edits) == 0 {
		return out, nil
	}
	if err := applyAll(ctx, docs, edits); err != nil {
		return WorktreeReview{}, fmt.Errorf("landing the reviewed changes: %w", err)
	}
	return out, nil
}

// reviewFile asks about one changed file and returns the edit that lands
// what was accepted (nil: nothing was), or why the file is skipped.
func (s *Session) reviewFile(ctx context.Context, tree worktree.Tree, ch worktree.Change, home Binding, docs, wtDocs tools.Documents,
	all bool) (*tools.FileEdit, WorktreeFile, string, error) {
	target := filepath.Join(tree.Repo, filepath.FromSlash(ch.Path))
	file := WorktreeFile{Path: filepath.ToSlash(ch.Path)}
	if !home.Workspace.Contains(target) {
		return nil, file, "outside the workspace", nil
	}
	file.Path = filepath.ToSlash(home.Workspace.Rel(target))
	after := ""
	if !ch.Deleted {
		src := filepath.Join(tree.Path, filepath.FromSlash(ch.Path))
		if fi, err := os.Lstat(src); err == nil && !fi.Mode().IsRegular() {
			return nil, file, "not a regular file (a symbolic link or a directory)", nil
		}
		doc, err := wtDocs.Read(ctx, src)
		if err != nil {
			return nil, file, "unreadable in the worktree: " + err.Error(), nil
		}
		after = doc.Text
	}
	if !utf8.ValidString(after) || !utf8.ValidString(ch.BaseText) || strings.IndexByte(after, 0) >= 0 || strings.IndexByte(ch.BaseText, 0) >= 0 {
		return nil, file, "binary", nil
	}
	base := tools.Doc{Path: target, Text: ch.BaseText, Exists: ch.InBase}
	act := tools.FileEditAction(ReviewTool, fmt.Sprintf("bring %s back from the worktree %s", file.Path, tree.Branch), file.Path, base, after, home.Workspace)
	act.CallID = "worktree:" + file.Path
	hunks := act.Edit.Hunks
	file.Hunks = len(hunks)
	accepted, err := askHunks(ctx, home.Approver, act, all)
	if err != nil {
		return nil, file, "", err
	}
	if accepted != nil && len(accepted) == 0 {
		return nil, file, "", nil
	}
	file.Accepted = accepted
	want := after
	if accepted != nil {
		if want, err = tools.ApplyHunks(ch.BaseText, hunks, accepted); err != nil {
			return nil, file, "", err
		}
	}
	current, err := docs.Read(ctx, target)
	if err != nil {
		return nil, file, "unreadable in your checkout: " + err.Error(), nil
	}
	edit := tools.FileEdit{Tool: ReviewTool, Before: current}
	if ch.Deleted && accepted == nil {
		if current.Exists && current.Text != ch.BaseText {
			return nil, file, "deleted in the worktree but changed in your checkout since", nil
		}
		edit.Delete = current.Exists
		if !edit.Delete {
			return nil, file, "already gone from your checkout", nil
		}
		return &edit, file, "", nil
	}
	merged, err := tools.Rebase(file.Path, tools.FileEdit{Before: base, After: want}, current)
	if err != nil {
		if errors.Is(err, tools.ErrEditConflict) {
			return nil, file, "your checkout changed the same lines since the worktree was made: " + err.Error(), nil
		}
		return nil, file, "", err
	}
	if current.Exists && merged == current.Text {
		return nil, file, "your checkout already has these changes", nil
	}
	edit.After = merged
	return &edit, file, "", nil
}

// askHunks asks approver about act: the accepted hunks' ids, nil for all
// of them, empty for none. all takes every hunk of a file below HIGH
// without asking.
func askHunks(ctx context.Context, approver permission.Approver, act permission.Action, all bool) ([]int, error) {
	if all && act.Risk < permission.High {
		return nil, nil
	}
	if rv, ok := approver.(permission.Reviewer); ok && len(act.Edit.Hunks) > 0 {
		r, err := rv.Review(ctx, act, false)
		if err != nil {
			return nil, err
		}
		if r.Decision == permission.Deny {
			return []int{}, nil
		}
		return knownHunks(r.Accepted, act.Edit.Hunks), nil
	}
	d, err := approver.Approve(ctx, act, false)
	if err != nil {
		return nil, err
	}
	if d == permission.Deny {
		return []int{}, nil
	}
	return nil, nil
}

// knownHunks keeps the ids of hunks that exist; naming every hunk is
// nil (all).
func knownHunks(accepted []int, hunks []permission.Hunk) []int {
	if accepted == nil {
		return nil
	}
	out := []int{}
	for _, h := range hunks {
		if slices.Contains(accepted, h.ID) {
			out = append(out, h.ID)
		}
	}
	if len(out) == len(hunks) {
		return nil
	}
	return out
}

// applyAll lands edits as one batch where docs can (one undo in an
// editor), else one by one.
func applyAll(ctx context.Context, docs tools.Documents, edits []tools.FileEdit) error {
	if b, ok := docs.(tools.BatchApplier); ok {
		return b.ApplyAll(ctx, edits)
	}
	for _, e := range edits {
		if err := docs.Apply(ctx, e); err != nil {
			return err
		}
	}
	return nil
}

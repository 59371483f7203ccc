package worktree

import (
	"bytes"
	"context"
	"slices"
	"strings"
)

// Change is one file the worktree changed against its base.
type Change struct {
	Path string // relative to the worktree, slash-separated, as git names it
	// InBase says whether the base commit has the file; BaseText is its
	// text there (its blob, no filter applied).
	InBase   bool
	BaseText string
	// Deleted: the worktree no longer has the file.
	Deleted bool
}

// Dirty lists the worktree's uncommitted changes, untracked files
// included (ignored ones not): what removing it would lose.
func (t Tree) Dirty(ctx context.Context) ([]string, error) {
	return status(ctx, t.Path, "--untracked-files=all")
}

// status is `git status` of dir's changes as paths.
func status(ctx context.Context, dir, untracked string) ([]string, error) {
	guard, err := repoGuard(ctx, dir)
	if err != nil {
		return nil, err
	}
	out, err := git(ctx, dir, guard, nil, "status", "--porcelain=v1", "-z", "--no-renames", untracked)
	if err != nil {
		return nil, err
	}
	var files []string
	for entry := range bytes.SplitSeq(out, []byte{0}) {
		if len(entry) > 3 {
			files = append(files, string(entry[3:]))
		}
	}
	return files, nil
}

// Changes is every file whose text in the worktree (committed on its
// branch or not, untracked files included, ignored ones not) differs
// from the base commit's, in path order, each with its base text.
func (t Tree) Changes(ctx context.Context) ([]Change, error) {
	guard, err := repoGuard(ctx, t.Path)
	if err != nil {
		return nil, err
	}
	out, err := git(ctx, t.Path, guard, nil, "diff", "--name-status", "-z", "--no-renames", "--no-ext-diff", "--no-textconv", t.Base, "--")
	if err != nil {
		return nil, err
	}
	var changes []Change
	fields := bytes.Split(bytes.TrimSuffix(out, []byte{0}), []byte{0})
	for i := 0; i+1 < len(fields); i += 2 {
		st, path := string(fields[i]), string(fields[i+1])
		changes = append(changes, Change{Path: path, InBase: st != "A", Deleted: st == "D"})
	}
	untracked, err := git(ctx, t.Path, guard, nil, "ls-files", "-z", "--others", "--exclude-standard")
	if err != nil {
		return nil, err
	}
	for p := range bytes.SplitSeq(bytes.TrimSuffix(untracked, []byte{0}), []byte{0}) {
		if len(p) > 0 {
			changes = append(changes, Change{Path: string(p)})
		}
	}
	for i := range changes {
		if !changes[i].InBase {
			continue
		}
		blob, err := git(ctx, t.Path, guard, nil, "cat-file", "blob", t.Base+":"+changes[i].Path)
		if err != nil {
			return nil, err
		}
		changes[i].BaseText = string(blob)
	}
	slices.SortFunc(changes, func(a, b Change) int { return strings.Compare(a.Path, b.Path) })
	return changes, nil
}

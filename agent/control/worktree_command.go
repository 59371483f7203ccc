package control

import (
	"context"
	"fmt"
	"strings"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/tools"
)

// worktreeCommand is /worktree: what a session in a git worktree does
// with its work, from any front end's command line.
var worktreeCommand = builtinCommand{Command: Command{Name: "/worktree",
	Description: "In a session of its own git worktree: show it, or review (hunk by hunk), apply (all), merge (its branch) its work into your checkout, or remove it (--force: with uncommitted changes)",
	Arguments:   []tools.PromptArgument{{Name: "action", Description: "review | apply | merge | remove [--force]"}}},
	run: (*Session).slashWorktree}

func (s *Session) slashWorktree(ctx context.Context, args string, _ agent.Listener) (Result, error) {
	wt := s.Worktree()
	if wt == nil {
		return Result{}, invalidf("this session does not work in a git worktree (start one with a worktree: agent-lsp chat --worktree)")
	}
	action, rest, _ := strings.Cut(strings.TrimSpace(args), " ")
	rest = strings.TrimSpace(rest)
	if rest != "" && !(action == "remove" && rest == "--force") {
		return Result{}, invalidf("/worktree %s: unexpected %q", action, rest)
	}
	switch action {
	case "":
		return answer(fmt.Sprintf("Worktree %s, branch %s from %s (of %s).", wt.Path, wt.Branch, shortCommit(wt.Base), wt.Repo)), nil
	case "review", "apply":
		r, err := s.ReviewWorktree(ctx, action == "apply")
		if err != nil {
			return Result{}, err
		}
		return answer(describeReview(r)), nil
	case "merge":
		m, err := s.MergeWorktree(ctx)
		if err != nil {
			return Result{}, err
		}
		msg := fmt.Sprintf("Merged %s into your checkout.", m.Branch)
		if m.Committed {
			msg = fmt.Sprintf("Committed the worktree's changes on %s and merged it into your checkout.", m.Branch)
		}
		return answer(msg), nil
	case "remove":
		r, err := s.RemoveWorktree(ctx, rest == "--force")
		if err != nil {
			return Result{}, err
		}
		msg := fmt.Sprintf("Removed the worktree %s and its branch %s; this session is closed.", r.Path, r.Branch)
		if r.BranchKept {
			msg = fmt.Sprintf("Removed the worktree %s; its branch %s has commits your checkout has not merged, and stays. This session is closed.", r.Path, r.Branch)
		}
		return answer(msg), nil
	}
	return Result{}, invalidf("/worktree: unknown action %q (review, apply, merge or remove)", action)
}

// describeReview is a review's outcome in a few lines.
func describeReview(r WorktreeReview) string {
	var b strings.Builder
	if len(r.Applied) == 0 {
		b.WriteString("Nothing was brought back.")
	}
	for _, f := range r.Applied {
		if f.Accepted == nil {
			fmt.Fprintf(&b, "Applied %s (all %d hunks).\n", f.Path, f.Hunks)
		} else {
			fmt.Fprintf(&b, "Applied %s (hunks %s of %d).\n", f.Path, joinInts(f.Accepted), f.Hunks)
		}
	}
	for _, p := range r.Rejected {
		fmt.Fprintf(&b, "\nRejected %s.", p)
	}
	for _, sk := range r.Skipped {
		fmt.Fprintf(&b, "\nSkipped %s: %s.", sk.Path, sk.Reason)
	}
	return strings.TrimSpace(b.String())
}

func joinInts(ids []int) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = fmt.Sprint(id)
	}
	return strings.Join(s, ", ")
}

func shortCommit(c string) string {
	if len(c) > 12 {
		return c[:12]
	}
	return c
}

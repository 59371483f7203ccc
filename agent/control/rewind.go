package control

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/agent-lsp/agent-lsp/agent"
)

// slashRewind is /rewind: without an argument it lists the checkpoints,
// numbered oldest first; /rewind N restores checkpoint N's files and drops
// the conversation from its prompt on.
func (s *Session) slashRewind(ctx context.Context, args string, _ agent.Listener) (Result, error) {
	cps := s.agent.Checkpoints()
	if args == "" {
		if len(cps) == 0 {
			return answer("No checkpoints yet: a checkpoint is taken when a prompt first changes a file."), nil
		}
		var b strings.Builder
		b.WriteString("Checkpoints (rewind with /rewind N):\n")
		for i, c := range cps {
			fmt.Fprintf(&b, "%d. %s  %q  (%s)\n", i+1, c.CreatedAt.Local().Format("15:04:05"), c.Prompt, s.changedFiles(c))
		}
		return answer(b.String()), nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(args))
	if err != nil || n < 1 || n > len(cps) {
		return Result{}, invalidf("/rewind takes a checkpoint number from 1 to %d", len(cps))
	}
	res, err := s.Rewind(ctx, cps[n-1].ID, agent.RewindOptions{RestoreFiles: true, TruncateConversation: true, Merge: agent.LineMerge})
	if err != nil {
		if _, ok := err.(*kindError); ok {
			return Result{}, err
		}
		return Result{}, fmt.Errorf("rewind: %w", err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Rewound to checkpoint %d (%q).\n", n, cps[n-1].Prompt)
	for _, f := range res.Files {
		fmt.Fprintf(&b, "%s %s\n", f.Action, s.rel(f.Path))
	}
	for _, c := range res.Conflicts {
		fmt.Fprintf(&b, "not restored: %s: %s\n", s.rel(c.Path), c.Reason)
	}
	fmt.Fprintf(&b, "%d message(s) dropped from the conversation.", res.DroppedMessages)
	return answer(b.String()), nil
}

// changedFiles names the files a checkpoint holds, in order.
func (s *Session) changedFiles(c agent.Checkpoint) string {
	if len(c.Files) == 0 {
		return "no files changed"
	}
	names := make([]string, 0, len(c.Files))
	for _, f := range c.Files {
		names = append(names, s.rel(f.Path))
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}

// rel names a path relative to the session's workspace.
func (s *Session) rel(path string) string {
	if s.b.Workspace == nil {
		return path
	}
	return s.b.Workspace.Rel(path)
}

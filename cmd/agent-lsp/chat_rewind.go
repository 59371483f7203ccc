package main

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/tools"
)

// rewind runs /rewind: without a number it lists the session's
// checkpoints, numbered from 1 (oldest); /rewind N restores the files as
// they were before prompt N and drops that prompt and everything after it
// from the conversation (the controller's rewind; the numbering and the
// lines are the terminal's).
func (c *chatControl) rewind(ctx context.Context, arg string) error {
	cps := c.sess.Agent().Checkpoints()
	if arg == "" {
		if len(cps) == 0 {
			c.p.line("no checkpoints yet: each prompt makes one")
			return nil
		}
		var b strings.Builder
		b.WriteString("checkpoints (/rewind N goes back to before prompt N):")
		for i, cp := range cps {
			files := "no files changed"
			if len(cp.Files) > 0 {
				var names []string
				for _, f := range cp.Files {
					names = append(names, c.ws.Rel(f.Path))
				}
				slices.Sort(names)
				files = strings.Join(names, ", ")
			}
			fmt.Fprintf(&b, "\n  %d. %s %q (%s)", i+1, cp.CreatedAt.Local().Format("15:04:05"), firstLine(cp.Prompt), files)
		}
		c.p.line(b.String())
		return nil
	}
	n, err := strconv.Atoi(arg)
	if err != nil || n < 1 || n > len(cps) {
		return fmt.Errorf("/rewind: want a checkpoint number from 1 to %d, got %q", len(cps), arg)
	}
	res, err := c.sess.Rewind(ctx, cps[n-1].ID, agent.RewindOptions{RestoreFiles: true, TruncateConversation: true,
		Merge: agent.LineMerge})
	if err != nil {
		return fmt.Errorf("/rewind: %w", err)
	}
	c.p.line(rewindText(c.ws, res))
	return nil
}

// rewindText says what a rewind did, a line a file.
func rewindText(ws *tools.Workspace, res agent.RewindResult) string {
	var b strings.Builder
	if len(res.Files) == 0 && len(res.Conflicts) == 0 {
		b.WriteString("no files to restore\n")
	}
	for _, f := range res.Files {
		fmt.Fprintf(&b, "%s %s\n", f.Action, ws.Rel(f.Path))
	}
	for _, f := range res.Conflicts {
		fmt.Fprintf(&b, "not restored %s: %s\n", ws.Rel(f.Path), f.Reason)
	}
	fmt.Fprintf(&b, "conversation rewound: %d messages dropped", res.DroppedMessages)
	return b.String()
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

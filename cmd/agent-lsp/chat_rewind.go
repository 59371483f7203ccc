package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/tools"
)

// rewind runs /rewind: without a number it lists the session's
// checkpoints, numbered from 1 (oldest); /rewind N restores the files as
// they were before prompt N and drops that prompt and everything after it
// from the conversation. handled is false for any other line.
func (c *chat) rewind(ctx context.Context, line string, out io.Writer) (handled bool, err error) {
	name, arg, _ := strings.Cut(strings.TrimSpace(line), " ")
	if name != "/rewind" {
		return false, nil
	}
	cps := c.session.Checkpoints()
	arg = strings.TrimSpace(arg)
	if arg == "" {
		if len(cps) == 0 {
			fmt.Fprintln(out, "no checkpoints yet: each prompt makes one")
			return true, nil
		}
		fmt.Fprintln(out, "checkpoints (/rewind N goes back to before prompt N):")
		for i, cp := range cps {
			files := "no files changed"
			if len(cp.Files) > 0 {
				var names []string
				for _, f := range cp.Files {
					names = append(names, c.ctl.ws.Rel(f.Path))
				}
				slices.Sort(names)
				files = strings.Join(names, ", ")
			}
			fmt.Fprintf(out, "  %d. %s %q (%s)\n", i+1, cp.CreatedAt.Local().Format("15:04:05"), firstLine(cp.Prompt), files)
		}
		return true, nil
	}
	n, err := strconv.Atoi(arg)
	if err != nil || n < 1 || n > len(cps) {
		return true, fmt.Errorf("/rewind: want a checkpoint number from 1 to %d, got %q", len(cps), arg)
	}
	res, err := c.session.Rewind(ctx, cps[n-1].ID, agent.RewindOptions{RestoreFiles: true, TruncateConversation: true,
		Merge: agent.LineMerge})
	if err != nil {
		return true, fmt.Errorf("/rewind: %w", err)
	}
	printRewind(out, c.ctl.ws, res)
	return true, nil
}

func printRewind(out io.Writer, ws *tools.Workspace, res agent.RewindResult) {
	if len(res.Files) == 0 && len(res.Conflicts) == 0 {
		fmt.Fprintln(out, "no files to restore")
	}
	for _, f := range res.Files {
		fmt.Fprintf(out, "%s %s\n", f.Action, ws.Rel(f.Path))
	}
	for _, f := range res.Conflicts {
		fmt.Fprintf(out, "not restored %s: %s\n", ws.Rel(f.Path), f.Reason)
	}
	fmt.Fprintf(out, "conversation rewound: %d messages dropped\n", res.DroppedMessages)
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

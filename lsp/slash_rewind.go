package lsp

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"go.lsp.dev/jsonrpc2"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/mcp"
)

func init() {
	builtinCommands = append(builtinCommands, builtinCommand{
		info: commandInfo{Name: "/rewind", Description: "List this session's checkpoints, or rewind to one: its files restored and the conversation from that prompt on dropped",
			Arguments: []mcp.PromptArgument{{Name: "checkpoint", Description: "the number /rewind lists"}}},
		run: (*server).slashRewind,
	})
}

// slashRewind is /rewind: without an argument it lists the checkpoints,
// numbered oldest first; /rewind N restores checkpoint N's files and drops
// the conversation from its prompt on (agent/rewind with both set).
func (s *server) slashRewind(ctx context.Context, sess *session, args string, _ promptParams) (string, error) {
	cps := sess.agent.Checkpoints()
	if args == "" {
		if len(cps) == 0 {
			return "No checkpoints yet: a checkpoint is taken when a prompt first changes a file.", nil
		}
		var b strings.Builder
		b.WriteString("Checkpoints (rewind with /rewind N):\n")
		for i, c := range cps {
			fmt.Fprintf(&b, "%d. %s  %q  %d file(s)\n", i+1, c.CreatedAt.Local().Format("15:04:05"), c.Prompt, len(c.Files))
		}
		return b.String(), nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(args))
	if err != nil || n < 1 || n > len(cps) {
		return "", jsonrpc2.Errorf(jsonrpc2.InvalidParams, "invalid params: /rewind takes a checkpoint number from 1 to %d", len(cps))
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	untrack := sess.track(cancel)
	defer untrack()
	res, err := sess.agent.Rewind(ctx, cps[n-1].ID, agent.RewindOptions{RestoreFiles: true, TruncateConversation: true, Merge: agent.LineMerge})
	switch {
	case errors.Is(err, agent.ErrUnknownCheckpoint), errors.Is(err, agent.ErrConversationGone):
		return "", jsonrpc2.Errorf(jsonrpc2.InvalidParams, "invalid params: %v", err)
	case err != nil && ctx.Err() != nil:
		return "", errRequestCancelled
	case err != nil:
		return "", jsonrpc2.Errorf(codeRequestFailed, "rewind: %v", err)
	}
	sess.touchUpdated(time.Now())
	ans := s.rewindAnswer(res.Files, res.Conflicts, res.DroppedMessages, res.Dropped)
	var b strings.Builder
	fmt.Fprintf(&b, "Rewound to checkpoint %d (%q).\n", n, cps[n-1].Prompt)
	for _, f := range ans.Restored {
		fmt.Fprintf(&b, "%s %s\n", f.Action, f.Path)
	}
	for _, c := range ans.Conflicts {
		fmt.Fprintf(&b, "not restored: %s: %s\n", c.Path, c.Reason)
	}
	fmt.Fprintf(&b, "%d message(s) dropped from the conversation.", ans.DroppedMessages)
	return b.String(), nil
}

package tools

import (
	"context"
	"fmt"
)

// WriteByPath runs write, which someone else carries out by path (the
// editor saving after workspace/applyEdit, an ACP client's
// fs/write_text_file), so that it lands where the check says. A path is
// followed at the moment of the write: a command still running could swap
// a workspace directory for a symlink to one outside between any check and
// that write. So the running commands are frozen first (commands may be
// nil: no runner of ours runs any), then every path must resolve inside
// the workspace with no symlink leading out (Workspace.Resolve, the rule
// os.Root applies to the agent's own writes), and the freeze holds until
// write returns. A refusal never calls write; the commands are continued
// on every return, a panic included.
func WriteByPath(ctx context.Context, commands CommandFreezer, ws *Workspace, paths []string, write func() error) error {
	if commands != nil {
		thaw, err := commands.Freeze(ctx)
		if err != nil {
			return fmt.Errorf("the edit was not sent: %w", err)
		}
		defer thaw()
	}
	for _, p := range paths {
		if _, err := ws.Resolve(p); err != nil {
			return fmt.Errorf("refused: %w (did a command replace a directory with a symlink?); the edit was not sent", err)
		}
	}
	return write()
}

package agent

import (
	"context"

	"github.com/agent-lsp/agent-lsp/tools"
)

// ReadLines passes read_file's window reads through to the inner
// Documents (a read changes nothing to checkpoint): without it the
// wrapper would hide the inner LineReader and every window would be a
// whole read.
func (d checkpointDocs) ReadLines(ctx context.Context, path string, req tools.LineRequest) (tools.LineWindow, error) {
	return tools.ReadWindow(ctx, d.inner, path, req)
}

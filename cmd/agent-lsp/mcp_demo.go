package main

import (
	"fmt"
	"io"

	"github.com/agent-lsp/agent-lsp/mcp/demo"
)

// runMCPDemo serves the built-in demo MCP server (current_time,
// word_count) on stdin/stdout; `--mcp=demo` starts it.
func runMCPDemo(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		fmt.Fprintf(stderr, "agent-lsp mcp-demo: takes no arguments\n")
		return 2
	}
	ctx, stop := terminationContext()
	defer stop()
	if err := demo.Serve(ctx, stdin, stdout); err != nil && ctx.Err() == nil {
		fmt.Fprintf(stderr, "agent-lsp mcp-demo: %v\n", err)
		return 1
	}
	return 0
}

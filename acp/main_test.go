package acp_test

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/agent-lsp/agent-lsp/mcp/demo"
	"github.com/agent-lsp/agent-lsp/tools/sandbox"
)

func TestMain(m *testing.M) {
	sandbox.Main() // the test binary is also the sandbox launcher
	// and the stub the test client's terminals run for a handed-off command.
	if len(os.Args) > 1 && os.Args[1] == sandbox.AttachArg {
		os.Exit(sandbox.RunAttached(context.Background(), os.Args[2:], os.Getenv(sandbox.AttachTokenEnv), os.Stdout, os.Stderr))
	}
	// The test binary stands in for agent-lsp as the demo MCP server the
	// test client passes in session/new.
	if len(os.Args) == 2 && os.Args[1] == "mcp-demo" {
		if err := demo.Serve(context.Background(), os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "mcp-demo:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

package main

import (
	"os"
	"testing"

	"github.com/agent-lsp/agent-lsp/tools/sandbox"
)

const envAsBinary = "AGENT_LSP_TEST_AS_BINARY"

// TestMain lets the test binary stand in for agent-lsp itself where the
// code re-executes its own binary (`--mcp=demo` starts `<self> mcp-demo`).
func TestMain(m *testing.M) {
	sandbox.Main() // the test binary is also the sandbox launcher
	// AGENT_LSP_TEST_AS_BINARY=1: be agent-lsp itself (a test that needs
	// the chat as a process of its own, to kill it).
	if os.Getenv(envAsBinary) == "1" {
		os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	if len(os.Args) > 1 && os.Args[1] == "mcp-demo" {
		os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

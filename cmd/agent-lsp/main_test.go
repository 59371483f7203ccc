package main

import (
	"os"
	"testing"

	"github.com/agent-lsp/agent-lsp/tools/sandbox"
)

// envRunMain makes the test binary run as agent-lsp (TestMain).
const envRunMain = "AGENT_LSP_TEST_RUN_MAIN"

// TestMain lets the test binary stand in for agent-lsp itself where the
// code re-executes its own binary (`--mcp=demo` starts `<self> mcp-demo`),
// and removes the binary the process tests built (built_test.go).
func TestMain(m *testing.M) {
	sandbox.Main() // the test binary is also the sandbox launcher
	// Set: be the agent-lsp binary itself (tests that run the chat as a
	// process).
	if os.Getenv(envRunMain) == "1" {
		os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	if len(os.Args) > 1 && os.Args[1] == "mcp-demo" {
		os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	code := m.Run()
	removeBuiltBinary()
	os.Exit(code)
}

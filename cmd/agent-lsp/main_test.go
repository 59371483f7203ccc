package main

import (
	"os"
	"testing"
)

// TestMain lets the test binary stand in for agent-lsp itself where the
// code re-executes its own binary (`--mcp=demo` starts `<self> mcp-demo`),
// and removes the binary the process tests built (built_test.go).
func TestMain(m *testing.M) {
	// The chat-process tests run the test binary as agent-lsp itself, so
	// that it can be killed with SIGKILL (chat_crash_test.go).
	if os.Getenv(envRunAsAgentLSP) != "" {
		os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	if len(os.Args) > 1 && os.Args[1] == "mcp-demo" {
		os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	code := m.Run()
	removeBuiltBinary()
	os.Exit(code)
}

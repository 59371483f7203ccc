package tools

import (
	"os"
	"testing"

	"github.com/agent-lsp/agent-lsp/tools/sandbox"
)

// TestMain lets the test binary be the sandbox launcher: sandboxed
// commands start /proc/self/exe with the launcher argument.
func TestMain(m *testing.M) {
	sandbox.Main()
	os.Exit(m.Run())
}

package tools

import (
	"os"
	"testing"

	"github.com/agent-lsp/agent-lsp/tools/sandbox"
)

// TestMain lets the test binary be the sandbox launcher (sandboxed
// commands start /proc/self/exe with the launcher argument) and the vault
// test's helper process (env_vault_test.go).
func TestMain(m *testing.M) {
	sandbox.Main()
	if os.Getenv(vaultHelperEnv) != "" {
		os.Exit(vaultHelper())
	}
	os.Exit(m.Run())
}

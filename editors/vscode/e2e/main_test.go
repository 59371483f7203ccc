package e2e

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/agent-lsp/agent-lsp/lsp/lsptest"
)

// daemonBinary is the agent-lsp binary TestMain built for this run.
var daemonBinary string

func TestMain(m *testing.M) {
	os.Exit(lsptest.RunWithDaemon(m, filepath.Join("..", "..", ".."), &daemonBinary))
}

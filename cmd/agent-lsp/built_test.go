package main

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/agent-lsp/agent-lsp/lsp/lsptest"
)

// The process tests run the real binary, built once per test run from this
// tree (or the one lsptest.BinaryEnv names): its main, not run(), so the
// start-up hardening is what is tested.
var built struct {
	once    sync.Once
	path    string
	cleanup func()
	err     error
}

// agentBinary returns the built binary, in a directory any user may enter
// (tests run it as nobody too).
func agentBinary(t *testing.T) string {
	t.Helper()
	built.once.Do(func() {
		built.path, built.cleanup, built.err = lsptest.BuildDaemon(filepath.Join("..", ".."))
		if built.err == nil && os.Getenv(lsptest.BinaryEnv) == "" {
			built.err = os.Chmod(filepath.Dir(built.path), 0o755)
		}
	})
	if built.err != nil {
		t.Fatalf("building agent-lsp: %v", built.err)
	}
	return built.path
}

func removeBuiltBinary() {
	if built.cleanup != nil {
		built.cleanup()
	}
}

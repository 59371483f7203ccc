package world_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/agent/world"
)

// The store's default directory is the user's state directory.
func TestOpenStoreDefaultsToTheStateDirectory(t *testing.T) {
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	st, err := world.OpenStore("", nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(st.Dir(), state+string(filepath.Separator)) {
		t.Fatalf("store in %s, want under %s", st.Dir(), state)
	}
}

package agent

import (
	"testing"

	"github.com/agent-lsp/agent-lsp/provider"
)

// A session stores the root it works in; one without a workspace stores
// none, and List reports it as unknown ("").
func TestSessionsStoreTheirWorkspace(t *testing.T) {
	store, err := NewStore(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	env := testEnv(t)
	with := NewSession(Config{Provider: newFakeModel(answer(text("ok"), done(provider.StopEndTurn, 1, 1))),
		Model: "m", Env: env, Store: store}, sys)
	with.Prompt(t.Context(), "hello", nil)
	without := NewSession(Config{Provider: newFakeModel(answer(text("ok"), done(provider.StopEndTurn, 1, 1))),
		Model: "m", Store: store}, sys)
	without.Prompt(t.Context(), "hello", nil)
	list, err := store.List()
	if err != nil || len(list) != 2 {
		t.Fatalf("List = %+v, %v", list, err)
	}
	got := map[string]string{}
	for _, info := range list {
		got[info.ID] = info.Workspace
	}
	if want := env.Workspace.Roots()[0]; got[with.ID()] != want || want == "" {
		t.Errorf("workspace = %q, want %q", got[with.ID()], want)
	}
	if got[without.ID()] != "" {
		t.Errorf("a session without a workspace stored %q", got[without.ID()])
	}
}

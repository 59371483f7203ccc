package agent

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/agent-lsp/agent-lsp/agent/contentstore"
	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/tools"
)

// An edit's text is judged for secrets by the lines it changed, against
// a text found clean before: a value hidden since that judgment makes the
// next edit's text judged whole, so a text holding the newly hidden value
// stays off the disk even where the edit did not touch it.
func TestValueHiddenBetweenEditsKeepsTheNextTextInMemory(t *testing.T) {
	const value = "between-edits-canary-value-4be0"
	store, err := NewStore(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	c := newCheckpointSetup(t, store)
	if err := os.WriteFile(filepath.Join(c.root, "a.txt"), []byte("alpha\none\ntoken="+value+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rewritten := "rewritten by the agent\ntoken=" + value + "\n"
	c.model.answers = [][]provider.Event{
		answer(call("c1", "edit_file", `{"path":"a.txt","old_string":"alpha","new_string":"ALPHA"}`), done(provider.StopToolUse, 10, 5)),
		answer(text("done"), done(provider.StopEndTurn, 10, 5)),
		answer(call("c2", "write_file", `{"path":"a.txt","content":"rewritten by the agent\ntoken=`+value+`\n"}`),
			done(provider.StopToolUse, 10, 5)),
		answer(text("done"), done(provider.StopEndTurn, 10, 5)),
	}
	s := NewSession(c.cfg, "system")
	if o := s.Prompt(t.Context(), "first", nil); o.StopReason != StopEndTurn {
		t.Fatalf("first prompt: %+v", o)
	}
	// The value becomes hidden after the first prompt stored its texts.
	t.Setenv("AGENT_TEST_BETWEEN_EDITS_TOKEN", value)
	if err := tools.HideEnv("AGENT_TEST_BETWEEN_EDITS_TOKEN"); err != nil {
		t.Fatal(err)
	}
	if o := s.Prompt(t.Context(), "second", nil); o.StopReason != StopEndTurn {
		t.Fatalf("second prompt: %+v", o)
	}
	if got, _ := c.read(t, "a.txt"); got != rewritten {
		t.Fatalf("a.txt = %q", got)
	}
	h := contentstore.Sum(rewritten)
	if slices.Contains(contentFiles(t, store, s.ID()), h.String()) {
		t.Fatal("the second prompt's text, holding the value hidden since the first, was written to the content store")
	}
	if got, err := s.CheckpointText(TextRef{Hash: h, Size: int64(len(rewritten))}); err != nil || got != rewritten {
		t.Fatalf("the running session lost the text: %q, %v", got, err)
	}
}

package agent

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agent-lsp/agent-lsp/agent/contentstore"
	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/tools"
)

// contentFiles lists the texts stored in session id's content directory.
func contentFiles(t *testing.T, st *Store, id string) []string {
	t.Helper()
	entries, err := os.ReadDir(st.contentDir(id))
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	slices.Sort(out)
	return out
}

func hashesOf(texts ...string) []string {
	var out []string
	for _, s := range texts {
		out = append(out, contentstore.Sum(s).String())
	}
	slices.Sort(out)
	return out
}

// The content store holds exactly what the checkpoints name: a prompt's
// superseded agent text (a.txt between its two edits) is collected at the
// prompt's end, and a rewind's dropped checkpoints take their texts with
// them. Both for a stored session and for one in memory.
func TestCheckpointTextsAreCollected(t *testing.T) {
	live := []string{"alpha\none\n", "ALPHA\nONE\n", "bravo\n", "bravo by the agent\n", "new\n"}
	superseded := "ALPHA\none\n"

	t.Run("stored", func(t *testing.T) {
		store, err := NewStore(t.TempDir(), nil)
		if err != nil {
			t.Fatal(err)
		}
		c := newCheckpointSetup(t, store)
		s := NewSession(c.cfg, "system")
		if o := s.Prompt(t.Context(), "change the files", nil); o.StopReason != StopEndTurn {
			t.Fatalf("prompt: %+v", o)
		}
		if got, want := contentFiles(t, store, s.ID()), hashesOf(live...); !slices.Equal(got, want) {
			t.Fatalf("content after the prompt:\n%v\nwant (the superseded %q gone)\n%v", got, superseded, want)
		}
		if _, err := s.Rewind(t.Context(), s.Checkpoints()[0].ID, RewindOptions{RestoreFiles: true}); err != nil {
			t.Fatal(err)
		}
		if got := contentFiles(t, store, s.ID()); len(got) != 0 {
			t.Fatalf("content after rewinding every checkpoint: %v", got)
		}
	})
	t.Run("memory", func(t *testing.T) {
		c := newCheckpointSetup(t, nil)
		s := NewSession(c.cfg, "system")
		s.Prompt(t.Context(), "change the files", nil)
		for _, text := range live {
			if !s.content.Has(contentstore.Sum(text)) {
				t.Errorf("%q, named by the checkpoint, was collected", text)
			}
		}
		if s.content.Has(contentstore.Sum(superseded)) {
			t.Errorf("the superseded %q was kept", superseded)
		}
		s.Rewind(t.Context(), s.Checkpoints()[0].ID, RewindOptions{RestoreFiles: true})
		for _, text := range live {
			if s.content.Has(contentstore.Sum(text)) {
				t.Errorf("%q kept after the rewind dropped its checkpoint", text)
			}
		}
	})
}

// A later checkpoint's texts survive a rewind to it only as long as an
// earlier checkpoint names them: rewinding the second prompt keeps the
// first's texts, which the second's "before" shares.
func TestRewindKeepsEarlierCheckpointsTexts(t *testing.T) {
	store, err := NewStore(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	c := newCheckpointSetup(t, store)
	c.model.answers = append(c.model.answers[:3],
		answer(call("c5", "edit_file", `{"path":"a.txt","old_string":"ONE","new_string":"uno"}`), done(provider.StopToolUse, 10, 5)),
		answer(text("done"), done(provider.StopEndTurn, 10, 5)))
	s := NewSession(c.cfg, "system")
	s.Prompt(t.Context(), "change the files", nil)
	s.Prompt(t.Context(), "again", nil)
	cps := s.Checkpoints()
	i, ok := cps[0].file(filepath.Join(c.root, "a.txt"))
	if len(cps) != 2 || !ok || len(cps[1].Files) != 1 || cps[1].Files[0].Before != cps[0].Files[i].Agent {
		t.Fatalf("checkpoints = %+v", cps)
	}
	if _, err := s.Rewind(t.Context(), cps[1].ID, RewindOptions{RestoreFiles: true}); err != nil {
		t.Fatal(err)
	}
	if a, _ := c.read(t, "a.txt"); a != "ALPHA\nONE\n" {
		t.Fatalf("a.txt = %q", a)
	}
	live := []string{"alpha\none\n", "ALPHA\nONE\n", "bravo\n", "bravo by the agent\n", "new\n"}
	if got, want := contentFiles(t, store, s.ID()), hashesOf(live...); !slices.Equal(got, want) {
		t.Fatalf("content after the rewind:\n%v\nwant\n%v", got, want)
	}
	// And the first checkpoint still rewinds, from the stored texts.
	if _, err := s.Rewind(t.Context(), cps[0].ID, RewindOptions{RestoreFiles: true}); err != nil {
		t.Fatal(err)
	}
	if a, _ := c.read(t, "a.txt"); a != "alpha\none\n" {
		t.Fatalf("a.txt = %q", a)
	}
}

// A session file holds references, not texts: editing a 200 KB file
// twice grows the session file by a few KB (the conversation), and the
// content store by the file once plus the two edited regions.
func TestCheckpointsStoreTheChangedRegion(t *testing.T) {
	store, err := NewStore(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	c := newCheckpointSetup(t, store)
	var b strings.Builder
	for i := 0; b.Len() < 200<<10; i++ {
		b.WriteString("line " + strings.Repeat("x", i%60) + "\n")
	}
	bigText := "alpha\none\n" + b.String()
	if err := os.WriteFile(filepath.Join(c.root, "a.txt"), []byte(bigText), 0o644); err != nil {
		t.Fatal(err)
	}
	c.model.answers = [][]provider.Event{
		answer(call("c1", "edit_file", `{"path":"a.txt","old_string":"alpha","new_string":"ALPHA"}`), done(provider.StopToolUse, 10, 5)),
		answer(call("c2", "edit_file", `{"path":"a.txt","old_string":"one","new_string":"ONE"}`), done(provider.StopToolUse, 10, 5)),
		answer(text("done"), done(provider.StopEndTurn, 10, 5)),
	}
	s := NewSession(c.cfg, "system")
	if o := s.Prompt(t.Context(), "edit the big file", nil); o.StopReason != StopEndTurn {
		t.Fatalf("prompt: %+v", o)
	}
	fi, err := os.Stat(store.path(s.ID()))
	if err != nil {
		t.Fatal(err)
	}
	var content int64
	for _, name := range contentFiles(t, store, s.ID()) {
		ci, err := os.Stat(filepath.Join(store.contentDir(s.ID()), name))
		if err != nil {
			t.Fatal(err)
		}
		content += ci.Size()
	}
	if fi.Size() > 8<<10 || content > int64(len(bigText))+2<<10 {
		t.Fatalf("session file %d bytes, content %d bytes; want ≤ 8 KiB and ≤ the file (%d) + 2 KiB", fi.Size(), content, len(bigText))
	}
	// Rewinding rebuilds the text before the prompt from them.
	if _, err := s.Rewind(t.Context(), s.Checkpoints()[0].ID, RewindOptions{RestoreFiles: true}); err != nil {
		t.Fatal(err)
	}
	if a, _ := c.read(t, "a.txt"); a != bigText {
		t.Fatalf("a.txt after the rewind: %d bytes, want %d", len(a), len(bigText))
	}
}

// A session file written before the content store, its checkpoints' texts
// inline, still loads: the texts are read, and the rewind restores them.
func TestOldSessionFileWithInlineTexts(t *testing.T) {
	store, err := NewStore(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	c := newCheckpointSetup(t, store)
	a, created := filepath.Join(c.root, "a.txt"), filepath.Join(c.root, "new.txt")
	if err := os.WriteFile(a, []byte("ALPHA\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(created, []byte("created\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const id = "20250101-000000-0123abcd"
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	if err := store.appendBatch(id, []record{{Type: recSession, ID: id, Model: "m", Created: &now},
		{Type: recMessage, Message: &provider.Message{Role: provider.RoleSystem, Text: "system"}},
		{Type: recMessage, Message: &provider.Message{Role: provider.RoleUser, Text: "change a"}},
		{Type: recMessage, Message: &provider.Message{Role: provider.RoleAssistant, Text: "done"}}}); err != nil {
		t.Fatal(err)
	}
	// The records as the code before the content store wrote them.
	old := func(files ...map[string]any) string {
		line, _ := json.Marshal(map[string]any{"type": "checkpoint", "checkpoint": map[string]any{
			"id": "cp1", "prompt": "change a", "createdAt": now, "historyLen": 1, "files": files}})
		return string(line) + "\n"
	}
	lines := old(map[string]any{"path": a, "existed": true, "text": "alpha\n", "agentExists": true, "agentText": "alpha\n"}) +
		old(map[string]any{"path": created, "existed": false, "agentExists": true, "agentText": "created\n"},
			map[string]any{"path": a, "existed": true, "text": "alpha\n", "agentExists": true, "agentText": "ALPHA\n"}) +
		`{"type":"commit"}` + "\n"
	f, err := os.OpenFile(store.path(id), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(lines); err != nil {
		t.Fatal(err)
	}
	f.Close()

	s, err := ResumeSession(c.cfg, id)
	if err != nil {
		t.Fatal(err)
	}
	cps := s.Checkpoints()
	if len(cps) != 1 || len(cps[0].Files) != 2 {
		t.Fatalf("checkpoints = %+v", cps)
	}
	fa := cps[0].Files[0]
	if before, err := s.CheckpointText(fa.Before); err != nil || before != "alpha\n" {
		t.Fatalf("a.txt before = %q, %v", before, err)
	}
	if after, err := s.CheckpointText(fa.Agent); err != nil || after != "ALPHA\n" {
		t.Fatalf("a.txt agent text = %q, %v", after, err)
	}
	res, err := s.Rewind(t.Context(), "cp1", RewindOptions{RestoreFiles: true})
	if err != nil || len(res.Files) != 2 || len(res.Conflicts) != 0 {
		t.Fatalf("rewind: %+v, %v", res, err)
	}
	if got, _ := c.read(t, "a.txt"); got != "alpha\n" {
		t.Errorf("a.txt = %q", got)
	}
	if _, ok := c.read(t, "new.txt"); ok {
		t.Error("new.txt, created by the agent, still exists")
	}
}

// A file holding a hidden secret: its text never reaches the state
// directory, the running session still rewinds it to the real text, and
// after a restart the rewind leaves it as it is, saying why.
func TestCheckpointTextWithASecretStaysInMemory(t *testing.T) {
	const secret = "checkpoint-canary-secret-77c1"
	t.Setenv("AGENT_TEST_CHECKPOINT_TOKEN", secret)
	if err := tools.HideEnv("AGENT_TEST_CHECKPOINT_TOKEN"); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	store, err := NewStore(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	c := newCheckpointSetup(t, store)
	withSecret := "alpha\none\ntoken=" + secret + "\n"
	if err := os.WriteFile(filepath.Join(c.root, "a.txt"), []byte(withSecret), 0o644); err != nil {
		t.Fatal(err)
	}
	s := NewSession(c.cfg, "system")
	s.Prompt(t.Context(), "change the files", nil)
	err = filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if b, _ := os.ReadFile(path); strings.Contains(string(b), secret) {
			t.Errorf("%s holds the secret", path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}

	r, err := ResumeSession(c.cfg, s.ID())
	if err != nil {
		t.Fatal(err)
	}
	res, err := r.Rewind(t.Context(), r.Checkpoints()[0].ID, RewindOptions{RestoreFiles: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Conflicts) != 1 || filepath.Base(res.Conflicts[0].Path) != "a.txt" ||
		!strings.Contains(res.Conflicts[0].Reason, "no longer stored") {
		t.Fatalf("rewind after the restart: %+v", res)
	}
	if a, _ := c.read(t, "a.txt"); a != "ALPHA\nONE\ntoken="+secret+"\n" {
		t.Errorf("a.txt = %q, want it as the agent left it", a)
	}

	// The running session has the text in memory and restores it.
	if _, err := s.Rewind(t.Context(), s.Checkpoints()[0].ID, RewindOptions{RestoreFiles: true}); err != nil {
		t.Fatal(err)
	}
	if a, _ := c.read(t, "a.txt"); a != withSecret {
		t.Errorf("a.txt after the live rewind = %q, want %q", a, withSecret)
	}
}

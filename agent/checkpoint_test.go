package agent

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/tools"
)

// batchRecorder is a Documents over the disk that records its batches.
type batchRecorder struct {
	*tools.DiskDocuments
	batches [][]tools.FileEdit
}

func (b *batchRecorder) ApplyAll(ctx context.Context, edits []tools.FileEdit) error {
	b.batches = append(b.batches, slices.Clone(edits))
	return b.DiskDocuments.ApplyAll(ctx, edits)
}

// editingScript is one prompt that edits a.txt and b.txt and creates
// c.txt, then answers; and the answer of a second prompt.
func editingScript() *fakeModel {
	return newFakeModel(
		answer(call("c1", "edit_file", `{"path":"a.txt","old_string":"alpha","new_string":"ALPHA"}`),
			call("c2", "write_file", `{"path":"b.txt","content":"bravo by the agent\n"}`),
			done(provider.StopToolUse, 10, 5)),
		answer(call("c3", "write_file", `{"path":"sub/c.txt","content":"new\n"}`),
			call("c4", "edit_file", `{"path":"a.txt","old_string":"one","new_string":"ONE"}`),
			done(provider.StopToolUse, 10, 5)),
		answer(text("done"), done(provider.StopEndTurn, 10, 5)),
		answer(text("second"), done(provider.StopEndTurn, 10, 5)),
	)
}

type checkpointSetup struct {
	root  string
	docs  *batchRecorder
	model *fakeModel
	cfg   Config
}

func newCheckpointSetup(t *testing.T, store *Store) checkpointSetup {
	t.Helper()
	root := t.TempDir()
	for name, text := range map[string]string{"a.txt": "alpha\none\n", "b.txt": "bravo\n"} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ws, err := tools.NewWorkspace(root)
	if err != nil {
		t.Fatal(err)
	}
	docs := &batchRecorder{DiskDocuments: &tools.DiskDocuments{Workspace: ws}}
	model := editingScript()
	cfg := Config{Provider: model, Model: "m", Tools: builtinRegistry(t), Env: &tools.Env{Workspace: ws, Docs: docs}, Store: store}
	return checkpointSetup{root: root, docs: docs, model: model, cfg: cfg}
}

func (c checkpointSetup) read(t *testing.T, name string) (string, bool) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(c.root, name))
	if errors.Is(err, os.ErrNotExist) {
		return "", false
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(b), true
}

// A prompt that edited two files and created a third: its checkpoint names
// the three; rewinding restores both, deletes the new one in one batch, and
// cuts the conversation back to before the prompt, so the next request
// holds no trace of it.
func TestRewindRestoresFilesAndConversation(t *testing.T) {
	c := newCheckpointSetup(t, nil)
	s := NewSession(c.cfg, "system")
	if o := s.Prompt(t.Context(), "change the files", nil); o.StopReason != StopEndTurn {
		t.Fatalf("prompt: %+v", o)
	}
	if got, _ := c.read(t, "a.txt"); got != "ALPHA\nONE\n" {
		t.Fatalf("a.txt after the prompt = %q", got)
	}
	cps := s.Checkpoints()
	if len(cps) != 1 || cps[0].Prompt != "change the files" || cps[0].HistoryLen != 1 {
		t.Fatalf("checkpoints = %+v", cps)
	}
	var paths []string
	for _, f := range cps[0].Files {
		paths = append(paths, filepath.Base(f.Path))
	}
	slices.Sort(paths)
	if !slices.Equal(paths, []string{"a.txt", "b.txt", "c.txt"}) {
		t.Fatalf("checkpoint files = %v", paths)
	}

	res, err := s.Rewind(t.Context(), cps[0].ID, RewindOptions{RestoreFiles: true, TruncateConversation: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.docs.batches) != 1 || len(c.docs.batches[0]) != 3 {
		t.Fatalf("batches = %d (%v), want one of 3 edits", len(c.docs.batches), c.docs.batches)
	}
	for name, want := range map[string]string{"a.txt": "alpha\none\n", "b.txt": "bravo\n"} {
		if got, ok := c.read(t, name); !ok || got != want {
			t.Errorf("%s = %q (exists %v), want %q", name, got, ok, want)
		}
	}
	if _, ok := c.read(t, "sub/c.txt"); ok {
		t.Error("sub/c.txt, created by the agent, still exists")
	}
	if len(res.Conflicts) != 0 || len(res.Files) != 3 || res.Dropped != 1 || res.DroppedMessages != 8 {
		t.Errorf("result = %+v", res)
	}
	if h := s.History(); len(h) != 1 || h[0].Role != provider.RoleSystem {
		t.Fatalf("history after the rewind = %+v", h)
	}
	if len(s.Checkpoints()) != 0 {
		t.Error("the rewound checkpoint is still listed")
	}
	if o := s.Prompt(t.Context(), "something else", nil); o.StopReason != StopEndTurn {
		t.Fatalf("next prompt: %+v", o)
	}
	reqs := c.model.Requests()
	last := reqs[len(reqs)-1].Messages
	if len(last) != 2 || last[1].Text != "something else" {
		t.Errorf("the request after the rewind = %+v", last)
	}
}

// A file the user changed after the agent is never overwritten: without a
// merge it is a conflict and stays as the user left it; with one, the
// merge's result lands. The other files are restored either way.
func TestRewindKeepsTheUsersLaterChanges(t *testing.T) {
	for _, withMerge := range []bool{false, true} {
		t.Run(map[bool]string{false: "no merge", true: "merge"}[withMerge], func(t *testing.T) {
			c := newCheckpointSetup(t, nil)
			s := NewSession(c.cfg, "system")
			s.Prompt(t.Context(), "change the files", nil)
			if err := os.WriteFile(filepath.Join(c.root, "b.txt"), []byte("bravo by the agent\nand the user\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			var merge MergeFunc
			var merged []string
			if withMerge {
				merge = func(base, ours, theirs string) (string, bool) {
					merged = []string{base, ours, theirs}
					return "bravo\nand the user\n", true
				}
			}
			res, err := s.Rewind(t.Context(), s.Checkpoints()[0].ID, RewindOptions{RestoreFiles: true, Merge: merge})
			if err != nil {
				t.Fatal(err)
			}
			b, _ := c.read(t, "b.txt")
			if !withMerge {
				if len(res.Conflicts) != 1 || filepath.Base(res.Conflicts[0].Path) != "b.txt" || b != "bravo by the agent\nand the user\n" {
					t.Fatalf("conflicts = %+v, b.txt = %q", res.Conflicts, b)
				}
			} else {
				want := []string{"bravo by the agent\n", "bravo by the agent\nand the user\n", "bravo\n"}
				if !slices.Equal(merged, want) || b != "bravo\nand the user\n" || len(res.Conflicts) != 0 {
					t.Fatalf("merge got %q, b.txt = %q, conflicts %+v", merged, b, res.Conflicts)
				}
			}
			if a, _ := c.read(t, "a.txt"); a != "alpha\none\n" {
				t.Errorf("a.txt = %q", a)
			}
			if len(s.History()) != 9 {
				t.Errorf("the conversation was truncated without being asked: %d messages", len(s.History()))
			}
		})
	}
}

// Checkpoints are stored with the session: a resumed session lists them
// and can rewind; a rewind is stored too.
func TestCheckpointsSurviveResume(t *testing.T) {
	store, err := NewStore(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	c := newCheckpointSetup(t, store)
	s := NewSession(c.cfg, "system")
	s.Prompt(t.Context(), "change the files", nil)
	s.Prompt(t.Context(), "only talk", nil)
	want := s.Checkpoints()
	if len(want) != 2 || len(want[1].Files) != 0 {
		t.Fatalf("checkpoints = %+v", want)
	}

	r, err := ResumeSession(c.cfg, s.ID())
	if err != nil {
		t.Fatal(err)
	}
	got := r.Checkpoints()
	if len(got) != 2 || got[0].ID != want[0].ID || got[0].HistoryLen != want[0].HistoryLen ||
		!slices.Equal(got[0].Files, want[0].Files) || got[1].HistoryLen != want[1].HistoryLen {
		t.Fatalf("resumed checkpoints = %+v\nwant %+v", got, want)
	}
	if _, err := r.Rewind(t.Context(), got[0].ID, RewindOptions{RestoreFiles: true, TruncateConversation: true}); err != nil {
		t.Fatal(err)
	}
	if _, ok := c.read(t, "sub/c.txt"); ok {
		t.Error("sub/c.txt survived the rewind")
	}
	again, err := ResumeSession(c.cfg, s.ID())
	if err != nil {
		t.Fatal(err)
	}
	if len(again.Checkpoints()) != 0 || len(again.History()) != 1 {
		t.Fatalf("after a stored rewind: %d checkpoints, %d messages", len(again.Checkpoints()), len(again.History()))
	}
}

// A compaction that summarised the point a checkpoint names refuses to
// truncate the conversation there; a point in the kept tail moves with
// it, and the point before the first prompt stays (the system prompt).
func TestCheckpointAfterCompaction(t *testing.T) {
	c := newCheckpointSetup(t, nil)
	c.model.answers = append(c.model.answers[:3],
		answer(text("second"), done(provider.StopEndTurn, 10, 5)),
		answer(text("third"), done(provider.StopEndTurn, 10, 5)),
		answer(text("the summary"), done(provider.StopEndTurn, 10, 5)))
	c.cfg.Keep = 2
	s := NewSession(c.cfg, "system")
	for _, p := range []string{"change the files", "second prompt", "third prompt"} {
		if o := s.Prompt(t.Context(), p, nil); o.StopReason != StopEndTurn {
			t.Fatalf("%s: %+v", p, o)
		}
	}
	if _, err := s.Compact(t.Context(), nil); err != nil {
		t.Fatal(err)
	}
	cps := s.Checkpoints()
	if cps[0].HistoryLen != 1 || cps[1].HistoryLen != -1 || cps[2].HistoryLen != 2 {
		t.Fatalf("conversation points after the compaction: %d, %d, %d", cps[0].HistoryLen, cps[1].HistoryLen, cps[2].HistoryLen)
	}
	if h := s.History(); h[cps[2].HistoryLen].Text != "third prompt" {
		t.Fatalf("the third checkpoint points at %+v", h[cps[2].HistoryLen])
	}
	if _, err := s.Rewind(t.Context(), cps[1].ID, RewindOptions{TruncateConversation: true}); !errors.Is(err, ErrConversationGone) {
		t.Fatalf("truncating to a summarised point: %v", err)
	}
	if len(s.Checkpoints()) != 3 {
		t.Fatal("a refused rewind dropped checkpoints")
	}
	if _, err := s.Rewind(t.Context(), cps[0].ID, RewindOptions{RestoreFiles: true, TruncateConversation: true}); err != nil {
		t.Fatal(err)
	}
	if a, _ := c.read(t, "a.txt"); a != "alpha\none\n" {
		t.Errorf("a.txt = %q", a)
	}
	if h := s.History(); len(h) != 1 {
		t.Errorf("history = %+v", h)
	}
	if _, err := s.Rewind(t.Context(), "nope", RewindOptions{RestoreFiles: true}); !errors.Is(err, ErrUnknownCheckpoint) {
		t.Errorf("unknown checkpoint: %v", err)
	}
}

func TestRemapCheckpoints(t *testing.T) {
	m := func(role provider.Role, text string) provider.Message {
		return provider.Message{Role: role, Text: text}
	}
	old := []provider.Message{m("system", "s"), m("user", "u1"), m("assistant", "a1"), m("user", "u2"), m("assistant", "a2")}
	tests := []struct {
		name string
		next []provider.Message
		in   []int
		want []int
	}{
		{"truncated", old[:3], []int{1, 3, 4}, []int{1, 3, -1}},
		{"summarised", []provider.Message{m("system", "s"), {Role: "system", Summary: true, Text: "sum"}, m("user", "u2"), m("assistant", "a2")},
			[]int{1, 3}, []int{1, 2}},
		{"same length", []provider.Message{m("system", "s"), m("user", "u1"), m("assistant", "elided"), m("user", "u2"), m("assistant", "a2")},
			[]int{1, 3}, []int{1, 3}},
		{"cleared", old[:1], []int{1, 3, -1}, []int{1, -1, -1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var cps []*Checkpoint
			for _, n := range tt.in {
				cps = append(cps, &Checkpoint{HistoryLen: n})
			}
			remapCheckpoints(cps, old, tt.next)
			var got []int
			for _, c := range cps {
				got = append(got, c.HistoryLen)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestCheckpointPromptIsShortened(t *testing.T) {
	c := newCheckpointSetup(t, nil)
	c.model.answers = [][]provider.Event{answer(text("ok"), done(provider.StopEndTurn, 1, 1))}
	s := NewSession(c.cfg, "system")
	s.Prompt(t.Context(), strings.Repeat("é", 500), nil)
	if p := s.Checkpoints()[0].Prompt; len([]rune(p)) != promptRunes || !strings.HasSuffix(p, "…") {
		t.Errorf("prompt = %d runes", len([]rune(p)))
	}
}

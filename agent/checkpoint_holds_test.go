package agent

import (
	"context"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/agent-lsp/agent-lsp/tools"
)

// readCounter is the disk, counting whole-text reads; hideHolds hides
// its TextHolder, as Documents without one are.
type readCounter struct {
	*tools.DiskDocuments
	reads atomic.Int32
}

func (r *readCounter) Read(ctx context.Context, path string) (tools.Doc, error) {
	r.reads.Add(1)
	return r.DiskDocuments.Read(ctx, path)
}

type hideHolds struct{ tools.Documents }

// A checkpoint takes the texts the edit already holds when the documents
// confirm the file holds them: no whole-file read before or after the
// change. When the file changed meanwhile, or the documents cannot tell,
// it reads the file, and the before text is the file's.
func TestCheckpointUsesTheEditsTextsWhenTheFileHoldsThem(t *testing.T) {
	for _, tt := range []struct {
		name      string
		hide      bool
		typed     string // written to the file after the edit was computed
		wantReads int32
		wantFirst string
	}{
		{name: "held", wantReads: 0, wantFirst: "alpha\n"},
		{name: "changed meanwhile", typed: "alpha, typed\n", wantReads: 1, wantFirst: "alpha, typed\n"},
		{name: "no TextHolder", hide: true, wantReads: 2, wantFirst: "alpha\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			path := filepath.Join(root, "a.txt")
			if err := os.WriteFile(path, []byte("alpha\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			ws, err := tools.NewWorkspace(root)
			if err != nil {
				t.Fatal(err)
			}
			counter := &readCounter{DiskDocuments: &tools.DiskDocuments{Workspace: ws}}
			var inner tools.Documents = counter
			if tt.hide {
				inner = hideHolds{counter}
			}
			s := NewSession(Config{Provider: newFakeModel(), Model: "m", Env: &tools.Env{Workspace: ws, Docs: counter}}, "system")
			s.beginCheckpoint("p")
			if tt.typed != "" {
				if err := os.WriteFile(path, []byte(tt.typed), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			edit := tools.FileEdit{Tool: "edit_file", Before: tools.Doc{Path: path, Text: tt.wantFirst, Exists: true}, After: "ALPHA\n"}
			if tt.typed != "" {
				edit.Before.Text = "alpha\n" // computed before the typing: the disk merges
				edit.After = "ALPHA\n"
			}
			if err := (checkpointDocs{inner: inner, s: s}).Apply(t.Context(), edit); err != nil && tt.typed == "" {
				t.Fatal(err)
			}
			if got := counter.reads.Load(); got != tt.wantReads {
				t.Errorf("whole-file reads = %d, want %d", got, tt.wantReads)
			}
			cps := s.Checkpoints()
			if len(cps) != 1 || len(cps[0].Files) != 1 {
				t.Fatalf("checkpoints = %+v", cps)
			}
			before, err := s.CheckpointText(cps[0].Files[0].Before)
			if err != nil || before != tt.wantFirst {
				t.Errorf("before text = %q, %v; want %q", before, err, tt.wantFirst)
			}
			if tt.typed == "" {
				agentText, err := s.CheckpointText(cps[0].Files[0].Agent)
				if err != nil || agentText != "ALPHA\n" {
					t.Errorf("agent text = %q, %v", agentText, err)
				}
			}
		})
	}
}

package agent

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/agent-lsp/agent-lsp/tools"
)

// ErrUnknownCheckpoint is returned for a checkpoint id the session does not have.
var ErrUnknownCheckpoint = errors.New("unknown checkpoint")

// ErrConversationGone is returned when a rewind would truncate the
// conversation to a point a compaction or a clear has removed.
var ErrConversationGone = errors.New("the conversation before this checkpoint was compacted or cleared; rewind the files only")

// MergeFunc merges three versions of a file's text: base, the common
// ancestor; ours and theirs, two changes of it. clean is false when the
// changes overlap (merged is then not used).
type MergeFunc func(base, ours, theirs string) (merged string, clean bool)

// RewindOptions say what a rewind restores.
type RewindOptions struct {
	// RestoreFiles puts every file the checkpoint's prompt and the later
	// ones changed back as it was before the prompt.
	RestoreFiles bool
	// TruncateConversation drops the checkpoint's prompt and everything
	// after it from the history.
	TruncateConversation bool
	// Merge merges a file the user changed after the agent did: base the
	// agent's text, ours the file now, theirs the checkpoint's text. Nil:
	// such a file is a conflict, left as it is.
	Merge MergeFunc
}

// File actions of a rewind.
const (
	FileRestored = "restored" // back to its text before the prompt
	FileDeleted  = "deleted"  // created by the agent, removed
	FileMerged   = "merged"   // restored around the user's later changes
)

// FileRestore is one file a rewind changed.
type FileRestore struct {
	Path   string `json:"path"`
	Action string `json:"action"`
}

// FileConflict is a file a rewind left as it was, and why.
type FileConflict struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// RewindResult is what a rewind did.
type RewindResult struct {
	Files     []FileRestore
	Conflicts []FileConflict
	// DroppedMessages is how many messages the truncation removed.
	DroppedMessages int
	// Dropped are the checkpoints removed: the one rewound to and the later ones.
	Dropped int
}

// Rewind goes back to the state before checkpoint id's prompt: the files
// (all in one batch when the Documents is a tools.BatchApplier: one
// workspace/applyEdit in an editor, so its undo brings the agent's work
// back) and the conversation. The checkpoint and every later one are
// dropped. It waits for a running prompt of the session to end (or ctx).
//
// A file the user changed after the agent is merged (RewindOptions.Merge)
// or reported as a conflict and left alone: the user's typing is never
// overwritten in silence. Files are restored before the conversation is
// cut; when the restore fails, nothing of the conversation changes.
func (s *Session) Rewind(ctx context.Context, id string, o RewindOptions) (RewindResult, error) {
	if !o.RestoreFiles && !o.TruncateConversation {
		return RewindResult{}, errors.New("rewind: neither the files nor the conversation to restore")
	}
	select {
	case s.busy <- struct{}{}:
	case <-ctx.Done():
		return RewindResult{}, context.Cause(ctx)
	}
	defer func() { <-s.busy }()

	s.mu.Lock()
	idx := slices.IndexFunc(s.cp.list, func(c *Checkpoint) bool { return c.ID == id })
	if idx < 0 {
		s.mu.Unlock()
		return RewindResult{}, fmt.Errorf("%w %q", ErrUnknownCheckpoint, id)
	}
	keep := s.cp.list[idx].HistoryLen
	if o.TruncateConversation && (keep < 0 || keep > len(s.history)) {
		s.mu.Unlock()
		return RewindResult{}, ErrConversationGone
	}
	later := cloneCheckpoints(s.cp.list[idx:])
	s.mu.Unlock()

	var res RewindResult
	if o.RestoreFiles {
		var err error
		res.Files, res.Conflicts, err = s.restoreFiles(ctx, later, "", o.Merge)
		if err != nil {
			return res, err
		}
	}

	s.mu.Lock()
	res.Dropped = len(s.cp.list) - idx
	s.cp.list = s.cp.list[:idx:idx]
	s.cp.active = nil
	s.cp.dirty = true // the dropped checkpoints' texts
	if s.cfg.Store != nil {
		s.pending = append(s.pending, record{Type: recRewind, CheckpointID: id})
	}
	if o.TruncateConversation {
		res.DroppedMessages = len(s.history) - keep
		s.history = slices.Clone(s.history[:keep])
		s.calib.invalidate()
		if s.cfg.Store != nil {
			s.pending = append(s.pending, record{Type: recCompaction, History: slices.Clone(s.history)})
		}
	}
	s.mu.Unlock()
	s.commit()
	s.collectContent() // after the rewind record: a crash before it keeps the texts it names
	return res, nil
}

// RestoreFile puts one file back as it was before checkpoint id's prompt
// (the merge and conflict rules of Rewind), leaving the conversation and
// the checkpoints as they are.
func (s *Session) RestoreFile(ctx context.Context, id, path string, merge MergeFunc) ([]FileRestore, []FileConflict, error) {
	select {
	case s.busy <- struct{}{}:
	case <-ctx.Done():
		return nil, nil, context.Cause(ctx)
	}
	defer func() { <-s.busy }()
	s.mu.Lock()
	idx := slices.IndexFunc(s.cp.list, func(c *Checkpoint) bool { return c.ID == id })
	if idx < 0 {
		s.mu.Unlock()
		return nil, nil, fmt.Errorf("%w %q", ErrUnknownCheckpoint, id)
	}
	later := cloneCheckpoints(s.cp.list[idx:])
	s.mu.Unlock()
	return s.restoreFiles(ctx, later, path, merge)
}

func cloneCheckpoints(cps []*Checkpoint) []Checkpoint {
	out := make([]Checkpoint, len(cps))
	for i, c := range cps {
		out[i] = c.clone()
	}
	return out
}

// restoreFiles restores the files cps changed (only path, when set): one
// batch through the inner Documents, never the checkpoint recorder.
func (s *Session) restoreFiles(ctx context.Context, cps []Checkpoint, only string, merge MergeFunc) ([]FileRestore, []FileConflict, error) {
	docs := s.cp.docs
	if docs == nil {
		return nil, nil, errors.New("rewind: the session has no documents to restore")
	}
	var order []string
	// A file's target is its text before the first of cps that changed
	// it; its base, the agent's text after the last.
	targets := map[string]*CheckpointFile{}
	for _, c := range cps {
		for _, f := range c.Files {
			if only != "" && f.Path != only {
				continue
			}
			t, ok := targets[f.Path]
			if !ok {
				targets[f.Path] = &f
				order = append(order, f.Path)
				continue
			}
			t.AgentExists, t.Agent = f.AgentExists, f.Agent
		}
	}
	slices.Sort(order) // parallel calls change files in any order; the batch is the same
	var (
		edits     []tools.FileEdit
		done      []FileRestore
		conflicts []FileConflict
	)
	for _, path := range order {
		t := targets[path]
		cur, err := docs.Read(ctx, path)
		if err != nil {
			return nil, nil, fmt.Errorf("rewind: reading %s: %w", path, err)
		}
		if cur.Path == "" {
			cur.Path = path
		}
		edit, action, reason := s.planRestore(*t, cur, merge)
		switch {
		case reason != "":
			conflicts = append(conflicts, FileConflict{Path: path, Reason: reason})
		case action != "":
			edits = append(edits, edit)
			done = append(done, FileRestore{Path: path, Action: action})
		}
	}
	if len(edits) == 0 {
		return done, conflicts, nil
	}
	var err error
	if b, ok := docs.(tools.BatchApplier); ok {
		err = b.ApplyAll(ctx, edits)
	} else {
		for _, e := range edits {
			if err = docs.Apply(ctx, e); err != nil {
				break
			}
		}
	}
	if err != nil {
		return nil, conflicts, fmt.Errorf("rewind: restoring the files: %w", err)
	}
	return done, conflicts, nil
}

// planRestore decides how one file goes back to t's text before the
// prompt: an edit and its action, or nothing (already there), or a
// conflict reason. The current text is compared with t's by hash; the
// stored texts are read only for the edit (and the merge) they make.
func (s *Session) planRestore(t CheckpointFile, cur tools.Doc, merge MergeFunc) (tools.FileEdit, string, string) {
	edit := tools.FileEdit{Tool: "rewind", Before: cur, Delete: !t.Existed}
	action := FileRestored
	if !t.Existed {
		action = FileDeleted
	}
	switch {
	case cur.Exists == t.Existed && (!cur.Exists || t.Before.Holds(cur.Text)):
		return tools.FileEdit{}, "", "" // already as it was
	case cur.Exists == t.AgentExists && (!cur.Exists || t.Agent.Holds(cur.Text)):
		if t.Existed {
			before, err := s.CheckpointText(t.Before)
			if err != nil {
				return tools.FileEdit{}, "", lostText(err)
			}
			edit.After = before
		}
		return edit, action, "" // as the agent left it
	case !cur.Exists:
		return tools.FileEdit{}, "", "deleted since the agent changed it; not recreated"
	case !t.Existed:
		return tools.FileEdit{}, "", "created by the agent and changed since; not deleted"
	case !t.AgentExists:
		return tools.FileEdit{}, "", "deleted by the agent and created again since; left as it is"
	case merge == nil:
		return tools.FileEdit{}, "", "changed since the agent's edit; left as it is (no merge available)"
	}
	agentText, err := s.CheckpointText(t.Agent)
	if err != nil {
		return tools.FileEdit{}, "", lostText(err)
	}
	before, err := s.CheckpointText(t.Before)
	if err != nil {
		return tools.FileEdit{}, "", lostText(err)
	}
	merged, clean := merge(agentText, cur.Text, before)
	if !clean {
		return tools.FileEdit{}, "", "changed since the agent's edit, on the lines the agent changed; left as it is"
	}
	edit.After = merged
	return edit, FileMerged, ""
}

// lostText is the conflict reason for a checkpoint text that cannot be
// read: one holding a hidden secret is never written to disk, so it is
// gone after a restart.
func lostText(err error) string {
	return fmt.Sprintf("its text at the checkpoint is no longer stored (%v); left as it is", err)
}

// LineMerge is tools.Merge3, the line-based three-way merge, as a
// MergeFunc: any conflict makes the merge unclean.
func LineMerge(base, ours, theirs string) (string, bool) {
	merged, conflicts := tools.Merge3(base, ours, theirs)
	return merged, len(conflicts) == 0
}

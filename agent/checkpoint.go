package agent

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/tools"
)

// A checkpoint is taken at the start of every prompt. Before the first
// change the prompt makes to a file, that file's text is recorded (the
// editor's buffer when open, else the disk; or that it did not exist),
// and after each change the text the agent left, the base of a later
// three-way merge. Every front end gets them: the session wraps its
// Env.Docs in checkpointDocs, so the loop and the tools know nothing of it.

// promptRunes bounds the prompt text a checkpoint keeps (a prompt may
// carry whole attached files).
const promptRunes = 200

// Checkpoint is the state before one prompt: of the conversation and of
// every file the prompt changed.
type Checkpoint struct {
	ID        string    `json:"id"`
	Prompt    string    `json:"prompt"` // the prompt, shortened
	CreatedAt time.Time `json:"createdAt"`
	// HistoryLen is how many messages the history held before the
	// prompt's user message: rewinding the conversation keeps these. -1
	// when a compaction or a clear removed that point.
	HistoryLen int              `json:"historyLen"`
	Files      []CheckpointFile `json:"files,omitempty"` // in the order first changed
}

// CheckpointFile is one file a prompt changed. Its texts are references
// into the session's content store: Session.CheckpointText reads them.
type CheckpointFile struct {
	Path    string  `json:"path"` // absolute
	Existed bool    `json:"existed"`
	Before  TextRef `json:"before,omitzero"` // the text before the prompt's first change
	// AgentExists and Agent are what the agent's last change of the
	// prompt left (read back after the change landed).
	AgentExists bool    `json:"agentExists"`
	Agent       TextRef `json:"agent,omitzero"`
}

func (c *Checkpoint) clone() Checkpoint {
	out := *c
	out.Files = slices.Clone(c.Files)
	return out
}

func (c *Checkpoint) file(path string) (int, bool) {
	for i, f := range c.Files {
		if f.Path == path {
			return i, true
		}
	}
	return 0, false
}

// checkpoints is a session's checkpoint state; Session.mu guards it.
type checkpoints struct {
	list   []*Checkpoint // oldest first
	active *Checkpoint   // the running (or last) prompt's
	docs   tools.Documents
	// dirty: a text may have lost its last reference since the last
	// collection (collectContent).
	dirty bool
	// naming is held (read) from storing a text until a checkpoint names
	// it, and (write) by a collection, so that a collection never sees a
	// text stored but not yet named. Not guarded by Session.mu.
	naming sync.RWMutex
}

// Checkpoints returns the session's checkpoints, oldest first.
func (s *Session) Checkpoints() []Checkpoint {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Checkpoint, len(s.cp.list))
	for i, c := range s.cp.list {
		out[i] = c.clone()
	}
	return out
}

// beginCheckpoint starts the checkpoint of a prompt about to be appended.
func (s *Session) beginCheckpoint(prompt string) {
	// The wall clock, not Config.Now: that clock prices the model calls,
	// and tests script its every reading.
	now := time.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	c := &Checkpoint{ID: newSessionID(now), Prompt: shorten(prompt, promptRunes), CreatedAt: now,
		HistoryLen: len(s.history)}
	s.cp.list = append(s.cp.list, c)
	s.cp.active = c
	s.queueCheckpoint(c, nil)
}

// queueCheckpoint queues a record of c with the file entries given (the
// loader merges them by path). Called with s.mu held.
func (s *Session) queueCheckpoint(c *Checkpoint, files []CheckpointFile) {
	if s.cfg.Store == nil {
		return
	}
	r := checkpointRecord{ID: c.ID, Prompt: c.Prompt, CreatedAt: c.CreatedAt, HistoryLen: c.HistoryLen}
	for _, f := range files {
		r.Files = append(r.Files, fileRecord{CheckpointFile: f})
	}
	s.pending = append(s.pending, record{Type: recCheckpoint, Checkpoint: &r})
}

// checkpointDocs is the Documents a session's tools use: the inner one,
// with each first change of a prompt to a file recorded before it lands.
type checkpointDocs struct {
	inner tools.Documents
	s     *Session
}

func (d checkpointDocs) Read(ctx context.Context, path string) (tools.Doc, error) {
	return d.inner.Read(ctx, path)
}

func (d checkpointDocs) Apply(ctx context.Context, edit tools.FileEdit) error {
	path := edit.Before.Path
	beforeRef := d.s.noteBefore(ctx, d.inner, path, edit.Before)
	// The text before the change is stored before the change lands: after a
	// crash while the edit lands, the prompt's checkpoint can still restore
	// the file.
	d.s.commit()
	if err := d.inner.Apply(ctx, edit); err != nil {
		return err
	}
	// Read back what landed: the editor may have merged the edit with the
	// user's typing, so edit.After is not necessarily the text now.
	landed := tools.Doc{Path: path, Text: edit.After, Exists: !edit.Delete}
	doc, _, err := textNow(ctx, d.inner, landed)
	if err != nil {
		doc = landed
	}
	d.s.noteAfter(path, doc, edit.Before, beforeRef)
	return nil
}

// noteBefore records path's text in the active checkpoint unless the
// prompt changed it already. The text is read now (fallback: what the
// edit was computed against): the file as it is before this change. It
// is stored (durably, before its record is queued) and dropped: the
// checkpoint keeps its reference. It returns the reference of fallback's
// text when that is the text it stored (zero otherwise), so that the
// change's text is stored against it without hashing it again.
func (s *Session) noteBefore(ctx context.Context, inner tools.Documents, path string, fallback tools.Doc) TextRef {
	s.mu.Lock()
	c := s.cp.active
	_, seen := c.fileOrNil(path)
	var near TextRef
	if c != nil && !seen {
		near = s.lastAgentText(path)
	}
	s.mu.Unlock()
	if c == nil || seen {
		return TextRef{}
	}
	doc, held, err := textNow(ctx, inner, fallback)
	if err != nil {
		doc, held = fallback, false
	}
	s.cp.naming.RLock()
	defer s.cp.naming.RUnlock()
	// Until a change lands, the agent's text is the text before it.
	f := CheckpointFile{Path: path, Existed: doc.Exists, AgentExists: doc.Exists}
	if doc.Exists {
		// Usually the agent's text of an earlier prompt, stored already;
		// else most likely a change of it (the user's typing since).
		f.Before = s.putText(doc.Text, near, nil, false)
		f.Agent = f.Before
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, seen := c.file(path); seen {
		return TextRef{} // recorded meanwhile by a parallel call
	}
	c.Files = append(c.Files, f)
	s.queueCheckpoint(c, []CheckpointFile{f})
	if !held || !doc.Exists {
		return TextRef{}
	}
	return f.Before
}

// textNow is the file's text now: want itself (held) when the documents
// can confirm the file holds it without handing out a copy
// (tools.TextHolder), else what Read gives. A 20 MB edit then holds its
// before and after texts once each, not twice.
func textNow(ctx context.Context, inner tools.Documents, want tools.Doc) (doc tools.Doc, held bool, err error) {
	if h, ok := inner.(tools.TextHolder); ok {
		if same, err := h.Holds(ctx, want); err == nil && same {
			return want, true, nil
		}
	}
	doc, err = inner.Read(ctx, want.Path)
	return doc, false, err
}

// lastAgentText is the agent's last text of path in an earlier
// checkpoint (zero: none). Called with s.mu held.
func (s *Session) lastAgentText(path string) TextRef {
	for i := len(s.cp.list) - 1; i >= 0; i-- {
		c := s.cp.list[i]
		if c == s.cp.active {
			continue
		}
		if j, ok := c.file(path); ok && c.Files[j].AgentExists {
			return c.Files[j].Agent
		}
	}
	return TextRef{}
}

// noteAfter records what a change of path left: doc, read back after it
// landed; before is what the change was computed against, most often the
// agent's text before it, so doc is stored as the region that changed;
// beforeRef, when not zero, is the reference of before's text.
func (s *Session) noteAfter(path string, doc, before tools.Doc, beforeRef TextRef) {
	s.mu.Lock()
	c := s.cp.active
	i, ok := c.fileOrNil(path)
	var prev TextRef
	if ok {
		prev = c.Files[i].Agent
	}
	s.mu.Unlock()
	if !ok {
		return
	}
	s.cp.naming.RLock()
	defer s.cp.naming.RUnlock()
	var ref TextRef
	if doc.Exists {
		var base *string
		if before.Exists {
			base = &before.Text
		}
		ref = s.putText(doc.Text, prev, base, !beforeRef.IsZero() && beforeRef == prev)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	f := &c.Files[i]
	if f.Agent != f.Before && f.Agent != ref {
		s.cp.dirty = true // the agent's earlier text of this prompt: no longer named
	}
	f.AgentExists, f.Agent = doc.Exists, ref
	s.queueCheckpoint(c, []CheckpointFile{*f})
}

func (c *Checkpoint) fileOrNil(path string) (int, bool) {
	if c == nil {
		return 0, false
	}
	return c.file(path)
}

// remapCheckpoints moves the conversation points of cps from history old
// to its replacement next (a compaction, a clear, a truncation). A point
// inside the unchanged prefix stays; one inside the unchanged tail moves
// with it; a history of the same length (old tool outputs elided in
// place, or one message summarised) keeps every point; any other point is
// gone (-1).
func remapCheckpoints(cps []*Checkpoint, old, next []provider.Message) {
	if len(old) == len(next) {
		return
	}
	prefix := 0
	for prefix < len(old) && prefix < len(next) && sameMessage(old[prefix], next[prefix]) {
		prefix++
	}
	suffix := 0
	for suffix < len(old)-prefix && suffix < len(next)-prefix &&
		sameMessage(old[len(old)-1-suffix], next[len(next)-1-suffix]) {
		suffix++
	}
	for _, c := range cps {
		switch {
		case c.HistoryLen < 0:
		case c.HistoryLen <= prefix:
		case c.HistoryLen >= len(old)-suffix && c.HistoryLen < len(old):
			c.HistoryLen += len(next) - len(old)
		default:
			c.HistoryLen = -1
		}
	}
}

func sameMessage(a, b provider.Message) bool {
	return a.Role == b.Role && a.Text == b.Text && a.Reasoning == b.Reasoning && a.ToolCallID == b.ToolCallID &&
		a.IsError == b.IsError && a.Summary == b.Summary && slices.Equal(a.ToolCalls, b.ToolCalls)
}

// shorten cuts s to n runes, marking the cut.
func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

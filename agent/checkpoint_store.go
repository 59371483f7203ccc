package agent

import (
	"slices"
	"time"

	"github.com/agent-lsp/agent-lsp/agent/contentstore"
)

// checkpointTexts is the content store of a session being loaded, and
// what failed as an old file's inline texts moved into it.
type checkpointTexts struct {
	content *contentstore.Store
	err     error
}

// checkpointRecord is a checkpoint record's checkpoint: its files are the
// ones changed since the last record of it.
type checkpointRecord struct {
	ID         string       `json:"id"`
	Prompt     string       `json:"prompt"`
	CreatedAt  time.Time    `json:"createdAt"`
	HistoryLen int          `json:"historyLen"`
	Files      []fileRecord `json:"files,omitempty"`
}

// fileRecord is a checkpoint file as stored: references to its texts in
// the session's content store. A session written before the content store
// has the texts inline (Text, AgentText), read only.
type fileRecord struct {
	CheckpointFile
	Text      string `json:"text,omitempty"`
	AgentText string `json:"agentText,omitempty"`
}

// applyCheckpoint applies a committed checkpoint or rewind record to the
// session being loaded.
func (l *loaded) applyCheckpoint(r record) {
	switch {
	case r.Type == recRewind:
		if i := slices.IndexFunc(l.cps, func(c *Checkpoint) bool { return c.ID == r.CheckpointID }); i >= 0 {
			l.cps = l.cps[:i:i]
		}
	case r.Checkpoint != nil:
		rc := r.Checkpoint
		i := slices.IndexFunc(l.cps, func(c *Checkpoint) bool { return c.ID == rc.ID })
		if i < 0 {
			l.cps = append(l.cps, &Checkpoint{ID: rc.ID, Prompt: rc.Prompt, CreatedAt: rc.CreatedAt, HistoryLen: rc.HistoryLen})
			i = len(l.cps) - 1
		}
		c := l.cps[i]
		for _, fr := range rc.Files {
			f := l.inlineTexts(fr)
			if j, ok := c.file(f.Path); ok {
				c.Files[j] = f
			} else {
				c.Files = append(c.Files, f)
			}
		}
	}
}

// inlineTexts moves the inline texts of a file recorded before the
// content store into it (an existing file with no reference has its
// text inline: omitted when empty).
func (l *loaded) inlineTexts(fr fileRecord) CheckpointFile {
	f := fr.CheckpointFile
	put := func(text string) TextRef {
		h, err := l.texts.content.Put(text)
		if err != nil && l.texts.err == nil {
			l.texts.err = err // kept in memory; the resumed session is no longer saved
		}
		return TextRef{Hash: h, Size: int64(len(text))}
	}
	if f.Existed && f.Before.IsZero() {
		f.Before = put(fr.Text)
	}
	if f.AgentExists && f.Agent.IsZero() {
		f.Agent = put(fr.AgentText)
	}
	return f
}

// validCheckpoints drops the conversation points a damaged file's repair
// moved past the history's end.
func validCheckpoints(cps []*Checkpoint, historyLen int) []*Checkpoint {
	for _, c := range cps {
		if c.HistoryLen > historyLen {
			c.HistoryLen = -1
		}
	}
	return cps
}

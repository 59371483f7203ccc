package agent

import (
	"fmt"
	"path/filepath"
	"unsafe"

	"go.uber.org/zap"

	"github.com/agent-lsp/agent-lsp/agent/contentstore"
	"github.com/agent-lsp/agent-lsp/tools"
)

// A checkpoint names its texts (a file before the prompt, the agent's
// text after it) by reference: each text is stored once in the session's
// content store, most as the region one edit changed (contentstore), and
// read back only when a rewind, a restore or a code lens needs it. With a
// Store, a session's texts live in <dir>/<id>.content/: a store per
// session, so its collection needs only that session's checkpoints (no
// counts shared between sessions, nor between two daemons on one state
// directory), and a session's files are the two named by its id.

// TextRef names a text in the session's content store.
type TextRef struct {
	Hash contentstore.Hash `json:"sha256"`
	Size int64             `json:"size"`
}

// RefOf is the reference of text (whether stored or not).
func RefOf(text string) TextRef {
	return TextRef{Hash: contentstore.Sum(text), Size: int64(len(text))}
}

// IsZero reports the reference of no text (a file that did not exist).
func (r TextRef) IsZero() bool { return r.Hash.IsZero() }

// Holds reports whether text is the text r names: sizes first, so that
// a text of another size is not hashed.
func (r TextRef) Holds(text string) bool {
	return !r.IsZero() && r.Size == int64(len(text)) && contentstore.Sum(text) == r.Hash
}

// contentDir is where session id's texts live.
func (st *Store) contentDir(id string) string { return filepath.Join(st.dir, id+".content") }

// openContent is the content store of session id: in st's directory, or
// in memory without a Store. Opening reads nothing.
func openContent(st *Store, id string) *contentstore.Store {
	if st == nil {
		return contentstore.NewMemory()
	}
	return contentstore.Open(st.contentDir(id), holdsSecret)
}

// secretPrivacy tells a text with a hidden value in it: the session file
// never holds one (its records are redacted), and neither does the
// content store, which keeps such a text in memory. Redacting it instead
// would make a rewind after a restart write "[REDACTED]" into the file.
// An edit's text is judged by the lines it changed (tools.SecretCheck).
type secretPrivacy struct{}

// holdsSecret is the privacy of contentstore.Open.
var holdsSecret contentstore.Privacy = secretPrivacy{}

func (secretPrivacy) Private(text string) (bool, any) {
	check := tools.CurrentSecretCheck()
	return text != "" && check.Holds(readOnlyBytes(text)), check
}

func (secretPrivacy) PrivateChange(text string, from, to int, rules any) (bool, any, bool) {
	check := tools.CurrentSecretCheck()
	if rules != check {
		return false, nil, false // the vault changed since: judged whole
	}
	return text != "" && check.ChangeHolds(readOnlyBytes(text), from, to), check, true
}

// readOnlyBytes is text's bytes without a copy; the checks never write.
func readOnlyBytes(text string) []byte { return unsafe.Slice(unsafe.StringData(text), len(text)) }

// CheckpointText returns the text r names (a checkpoint file's Before or
// Agent), read from the session's content store.
func (s *Session) CheckpointText(r TextRef) (string, error) {
	if r.IsZero() {
		return "", fmt.Errorf("checkpoint text: no text (the file did not exist)")
	}
	text, err := s.content.Get(r.Hash)
	if err != nil {
		return "", fmt.Errorf("checkpoint text: %w", err)
	}
	return text, nil
}

// putText stores text and returns its reference: as a change of base
// (the text the edit was computed against, held by the caller) when near
// names base (known, or checked by hashing base), else as a change of
// near read back, else whole. A failed write ends the session's
// persistence, as a failed record does: the text is kept in memory, and
// no record naming it is written.
func (s *Session) putText(text string, near TextRef, base *string, nearIsBase bool) TextRef {
	var (
		h   contentstore.Hash
		err error
	)
	switch {
	case base != nil && (nearIsBase || near.Holds(*base)):
		h, err = s.content.PutDelta(text, near.Hash, *base)
	case !near.IsZero():
		h, err = s.content.PutNear(text, near.Hash)
	default:
		h, err = s.content.Put(text)
	}
	if err != nil {
		s.storeFailure(err)
	}
	return TextRef{Hash: h, Size: int64(len(text))}
}

// collectContent deletes the texts no checkpoint names any more (after a
// rewind, or the agent's later change of a file within a prompt), once the
// records that stopped naming them are written (a prompt's end, a rewind).
func (s *Session) collectContent() {
	s.cp.naming.Lock()
	defer s.cp.naming.Unlock()
	s.mu.Lock()
	if !s.cp.dirty {
		s.mu.Unlock()
		return
	}
	s.cp.dirty = false
	var live []contentstore.Hash
	for _, c := range s.cp.list {
		for _, f := range c.Files {
			live = append(live, f.Before.Hash, f.Agent.Hash)
		}
	}
	live = append(live, s.imageHashes()...) // the history's images live there too
	s.mu.Unlock()
	if n, err := s.content.Collect(live); err != nil {
		s.cfg.Logger.Warn("checkpoint texts: collecting", zap.String("session", s.id), zap.Error(err))
	} else if n > 0 {
		s.cfg.Logger.Debug("checkpoint texts collected", zap.String("session", s.id), zap.Int("texts", n))
	}
}

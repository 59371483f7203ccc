package agent

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// Delete removes session id's file and its content store (its checkpoint
// texts and images). A session not stored is fs.ErrNotExist.
func (st *Store) Delete(id string) error {
	if !validID(id) {
		return fmt.Errorf("session %q: not a session id", id)
	}
	err := os.Remove(st.path(id))
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("session %s: %w", id, fs.ErrNotExist)
	}
	if err != nil {
		return fmt.Errorf("session %s: %w", id, err)
	}
	if err := os.RemoveAll(st.contentDir(id)); err != nil {
		return fmt.Errorf("session %s: its content: %w", id, err)
	}
	return nil
}

// Forget stops writing the session: what it does from now on stays in
// memory (a session deleted while a prompt of it still winds down must
// not write its file again).
func (s *Session) Forget() {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.storeFailed, s.pending = true, nil
}

package contentstore

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Collect deletes every text that neither live names nor a live text's
// delta needs (its base, down to the whole text), and what a crash left
// of an unfinished write (a detached store leaves its directory alone).
// It returns how many texts it deleted. The
// caller names every text it may still read: one Put concurrently with
// Collect must already be among live.
func (s *Store) Collect(live []Hash) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	keep := map[Hash]bool{}
	for _, h := range live {
		for depth := 0; !h.IsZero() && !keep[h] && depth <= maxDepth; depth++ {
			keep[h] = true
			b, err := s.header(h)
			if err != nil {
				break // not stored (the empty text, or gone): nothing below it
			}
			h = b.base
		}
	}
	removed := 0
	for h := range s.mem {
		if !keep[h] {
			delete(s.mem, h)
			removed++
		}
	}
	if s.dir == "" || s.failed {
		return removed, nil
	}
	entries, err := os.ReadDir(s.dir)
	if errors.Is(err, os.ErrNotExist) {
		return removed, nil // nothing was ever written
	}
	if err != nil {
		return removed, fmt.Errorf("content store %s: %w", s.dir, err)
	}
	var errs []error
	for _, e := range entries {
		name := e.Name()
		if h, err := ParseHash(name); err == nil && keep[h] {
			continue
		} else if err != nil && !strings.HasPrefix(name, tmpPrefix) {
			continue // not ours: left alone
		}
		if err := os.Remove(filepath.Join(s.dir, name)); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, err)
			continue
		}
		if !strings.HasPrefix(name, tmpPrefix) {
			removed++
		}
	}
	if err := errors.Join(errs...); err != nil {
		return removed, fmt.Errorf("content store %s: %w", s.dir, err)
	}
	return removed, nil
}

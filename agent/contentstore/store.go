// Package contentstore keeps texts addressed by their SHA-256: the file
// texts a session's checkpoints refer to. A text is stored once, whole or
// as the difference from another stored text (one edit of a big file
// stores the replaced region only), and collected when nothing refers to
// it any more. A Store lives in one directory, written atomically, or in
// memory only.
package contentstore

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"sync"
	"unsafe"
)

// Hash names a text: its SHA-256. The zero Hash names no text.
type Hash [sha256.Size]byte

// Empty is the hash of the empty text, which is never stored: Get always has it.
var Empty = Sum("")

// Sum hashes text without copying it.
func Sum(text string) Hash {
	return sha256.Sum256(view(text))
}

// view is text's bytes, read-only: hashing and writing a 20 MB text
// must not copy it first.
func view(text string) []byte {
	return unsafe.Slice(unsafe.StringData(text), len(text))
}

// IsZero reports the zero Hash.
func (h Hash) IsZero() bool { return h == Hash{} }

func (h Hash) String() string { return hex.EncodeToString(h[:]) }

// MarshalText writes h in hex ("" for the zero Hash).
func (h Hash) MarshalText() ([]byte, error) {
	if h.IsZero() {
		return []byte{}, nil
	}
	return []byte(h.String()), nil
}

// UnmarshalText reads h from hex ("" is the zero Hash).
func (h *Hash) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		*h = Hash{}
		return nil
	}
	p, err := ParseHash(string(b))
	if err != nil {
		return err
	}
	*h = p
	return nil
}

// ParseHash reads a hash written by Hash.String.
func ParseHash(s string) (Hash, error) {
	var h Hash
	if len(s) != 2*len(h) {
		return Hash{}, fmt.Errorf("content hash %q: want %d hex digits", s, 2*len(h))
	}
	if _, err := hex.Decode(h[:], []byte(s)); err != nil {
		return Hash{}, fmt.Errorf("content hash %q: %w", s, err)
	}
	return h, nil
}

// ErrNotFound is returned by Get for a text the store does not hold.
var ErrNotFound = errors.New("content not stored")

// Store holds texts by hash. Its methods are safe for concurrent use.
type Store struct {
	mu  sync.Mutex
	dir string // "": memory only
	// mem holds the texts kept in memory: all of them without a dir; with
	// one, those private said must not be written and, after a failed
	// write, every later one.
	mem     map[Hash]*blob
	privacy Privacy
	// cleared: texts privacy found not private, with the rules it used
	// (privacy.go): an edit of one is judged by the region it changed.
	cleared map[Hash]any
	failed  bool // a write to dir failed, or Detach: the store goes on in memory
	made    bool // dir exists
}

// Open returns the store in dir, created (private to the user) at the
// first write: opening reads nothing. privacy, when set, tells a text
// that must never reach the disk (it holds a secret): such a text is kept
// in memory, for the life of the Store only.
func Open(dir string, privacy Privacy) *Store {
	return &Store{dir: dir, mem: map[Hash]*blob{}, privacy: privacy, cleared: map[Hash]any{}}
}

// NewMemory returns a store that keeps its texts in memory.
func NewMemory() *Store { return &Store{mem: map[Hash]*blob{}, cleared: map[Hash]any{}} }

// Dir is the store's directory ("" in memory).
func (s *Store) Dir() string { return s.dir }

// Put stores text unless it is stored already and returns its hash.
func (s *Store) Put(text string) (Hash, error) {
	return s.put(Sum(text), text, Hash{}, nil)
}

// PutDelta is Put for a text probably close to base, a stored text whose
// content the caller holds (baseText, which must hash to base): text is
// stored as its difference from base when that is small.
func (s *Store) PutDelta(text string, base Hash, baseText string) (Hash, error) {
	return s.put(Sum(text), text, base, &baseText)
}

// PutNear is PutDelta when the caller does not hold base's text: it is
// read back, only when text is not stored already.
func (s *Store) PutNear(text string, base Hash) (Hash, error) {
	h := Sum(text)
	if base.IsZero() || s.Has(h) {
		return s.put(h, text, Hash{}, nil)
	}
	baseText, err := s.Get(base)
	if err != nil {
		return s.put(h, text, Hash{}, nil) // collected or unreadable: store it whole
	}
	return s.put(h, text, base, &baseText)
}

// Has reports whether the store holds h.
func (s *Store) Has(h Hash) bool {
	if h == Empty {
		return true
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	_, err := s.header(h)
	return err == nil
}

// put stores text, whose hash is h.
func (s *Store) put(h Hash, text string, base Hash, baseText *string) (Hash, error) {
	if h == Empty {
		return h, nil
	}
	var prefix, suffix int
	if baseText != nil {
		prefix, suffix = common(*baseText, text)
	}
	secret := s.judge(h, text, base, baseText, prefix, suffix)
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := s.header(h); err == nil {
		return h, nil
	}
	inMem := s.dir == "" || s.failed || secret
	b := &blob{size: int64(len(text)), data: text}
	if baseText != nil && !secret {
		if d, ok := s.delta(text, base, *baseText, prefix, suffix, inMem); ok {
			b = d
		}
	}
	if inMem {
		if b.full() {
			b.data = text // the caller's string: no copy
		}
		s.mem[h] = b
		return h, nil
	}
	if err := s.write(h, b); err != nil {
		// Kept in memory, so the caller's checkpoint still works until
		// the process ends; nothing more is written.
		s.failed = true
		s.mem[h] = &blob{size: int64(len(text)), data: text}
		return h, fmt.Errorf("content store %s: %w", s.dir, err)
	}
	return h, nil
}

// delta makes text's blob as a difference from base when that pays and
// keeps chains short: at most maxDepth deltas from a whole text, whose
// middles add up to no more than that text's size. A delta kept on disk
// has its base on disk.
func (s *Store) delta(text string, base Hash, baseText string, prefix, suffix int, inMem bool) (*blob, bool) {
	bh, err := s.header(base)
	if err != nil || bh.size != int64(len(baseText)) {
		return nil, false
	}
	if _, memBase := s.mem[base]; memBase && !inMem {
		return nil, false
	}
	middle := text[prefix : len(text)-suffix]
	root, depth, chain := bh.size, 1, int64(len(middle))
	if !bh.full() {
		root, depth, chain = bh.root, bh.depth+1, bh.chain+chain
	}
	if depth > maxDepth || chain > root || int64(len(middle))+maxHeader >= int64(len(text)) {
		return nil, false
	}
	// The middle is copied: a substring would keep the whole text alive.
	return &blob{base: base, prefix: int64(prefix), suffix: int64(suffix), depth: depth, chain: chain, root: root,
		size: int64(len(text)), data: strings.Clone(middle)}, true
}

// Detach stops the store's use of its directory: later texts are kept in
// memory, and Collect no longer deletes files. The session's records
// stopped being written (a failed write): the texts the last records
// written name must stay for a later resume.
func (s *Store) Detach() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failed = true
}

// Get returns the text h names.
func (s *Store) Get(h Hash) (string, error) {
	if h == Empty {
		return "", nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var chain []*blob
	for cur := h; ; {
		b, err := s.read(cur)
		if err != nil {
			return "", fmt.Errorf("content %s: %w", h, err)
		}
		chain = append(chain, b)
		if b.full() {
			break
		}
		if len(chain) > maxDepth+1 {
			return "", fmt.Errorf("content %s: a delta chain longer than %d", h, maxDepth)
		}
		cur = b.base
	}
	text := rebuild(chain)
	if Sum(text) != h {
		return "", fmt.Errorf("content %s: stored text does not match its hash", h)
	}
	return text, nil
}

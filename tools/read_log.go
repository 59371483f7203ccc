package tools

import (
	"hash/maphash"
	"io/fs"
	"sync"
	"time"
)

// The texts a ReadLog keeps are bounded, one by one and all together: it
// is the session's memory of files, not a cache of them, and a session
// that reads a 20 MB file must not hold a copy of it for its lifetime.
const (
	// maxKeptText is the largest text kept whole; of a larger one only its
	// size and hash are kept.
	maxKeptText = 1 << 20
	// maxKeptTotal bounds the texts kept whole; past it, the texts recorded
	// longest ago are reduced to their size and hash.
	maxKeptTotal = 8 << 20
)

// ReadLog remembers, per file, the text the model last knew the file to
// hold: what read_file read, or what the model's own write_file or
// edit_file made of it. It is the merge base of a later whole-file write,
// so changes made by someone else since the model looked are kept rather
// than overwritten with the model's stale copy.
//
// Texts are kept whole up to a bound (maxKeptText, maxKeptTotal); above
// it, a hash: enough to tell whether the file still holds what the model
// knew, not to merge with a change (a write then asks the model to read
// the file again).
//
// One session has one ReadLog (the model of another session read other
// things). It is safe for concurrent use; a nil *ReadLog remembers nothing.
type ReadLog struct {
	mu      sync.Mutex
	seed    maphash.Seed
	entries map[string]*readEntry // absolute, resolved path → what the model knew
	kept    int                   // bytes of text kept whole
	clock   uint64                // counts Records, to find the oldest entries
}

type readEntry struct {
	known Known
	at    uint64 // the Record that made it
}

// Known is what the model last knew a file to hold: its text, or, for a
// large text, its size and hash.
type Known struct {
	text    string
	kept    bool // text is the whole text
	unknown bool // the model's view could not be followed: it matches nothing
	size    int
	sum     uint64
	seed    maphash.Seed
	// window: the model read a window of a file too large to hold, streamed
	// from disk; all that is known is the file's size and modification
	// time then (size, modTime).
	window  bool
	modTime time.Time
}

// Text returns the text when it was kept whole.
func (k Known) Text() (string, bool) { return k.text, k.kept }

// Is reports whether text is what the model knew.
func (k Known) Is(text string) bool {
	switch {
	case k.kept:
		return text == k.text
	case k.unknown:
		return false
	}
	// A 64-bit seeded hash: the seed is random per log, so no file can be
	// made to collide with another on purpose, and chance collisions of
	// two versions of one file are negligible.
	return len(text) == k.size && maphash.String(k.seed, text) == k.sum
}

// Holds reports whether text, the file's text now, is what the model
// knew. For a window read, where no text was kept, the file must still
// have the size and modification time it had then (stat reads them now)
// and text that size.
func (k Known) Holds(text string, stat func() (fs.FileInfo, error)) bool {
	if !k.window {
		return k.Is(text)
	}
	if len(text) != k.size {
		return false
	}
	fi, err := stat()
	return err == nil && fi.Size() == int64(k.size) && fi.ModTime().Equal(k.modTime)
}

// NewReadLog returns an empty log.
func NewReadLog() *ReadLog {
	return &ReadLog{seed: maphash.MakeSeed(), entries: map[string]*readEntry{}}
}

// Record notes that the model now knows path to hold text.
func (l *ReadLog) Record(path, text string) {
	if l == nil {
		return
	}
	k := Known{text: text, kept: true, size: len(text), seed: l.seed}
	if len(text) > maxKeptText {
		k = l.hashed(text)
	}
	l.put(path, k)
}

// RecordWindow notes that the model read a window of path, a file streamed
// from disk whose text was not held: its size and modification time are
// what a later write checks (Known.Holds). An earlier whole read stays the
// base when the file is unchanged since.
func (l *ReadLog) RecordWindow(path string, size int64, modTime time.Time) {
	if l == nil {
		return
	}
	if k, ok := l.Lookup(path); ok && !k.window && k.size == int(size) {
		return
	}
	l.put(path, Known{window: true, size: int(size), modTime: modTime, seed: l.seed})
}

// recordUnknown notes that the model's view of path is not known (an edit
// made on a large text it read when the file had changed since): a later
// write must read the file again.
func (l *ReadLog) recordUnknown(path string) {
	if l == nil {
		return
	}
	l.put(path, Known{unknown: true, seed: l.seed})
}

func (l *ReadLog) hashed(text string) Known {
	return Known{size: len(text), sum: maphash.String(l.seed, text), seed: l.seed}
}

func (l *ReadLog) put(path string, k Known) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if old, ok := l.entries[path]; ok && old.known.kept {
		l.kept -= len(old.known.text)
	}
	l.clock++
	l.entries[path] = &readEntry{known: k, at: l.clock}
	if k.kept {
		l.kept += len(k.text)
	}
	for l.kept > maxKeptTotal {
		oldest := (*readEntry)(nil)
		for _, e := range l.entries {
			if e.known.kept && (oldest == nil || e.at < oldest.at) {
				oldest = e
			}
		}
		l.kept -= len(oldest.known.text)
		oldest.known = l.hashed(oldest.known.text)
	}
}

// Lookup returns what the model last knew path to hold.
func (l *ReadLog) Lookup(path string) (Known, bool) {
	if l == nil {
		return Known{}, false
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	e, ok := l.entries[path]
	if !ok {
		return Known{}, false
	}
	return e.known, true
}

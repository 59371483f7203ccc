package tools

import "sync"

// ReadLog remembers, per file, the text the model last knew the file to
// hold: what read_file read, or what the model's own write_file or
// edit_file made of it. It is the merge base of a later whole-file write,
// so changes made by someone else since the model looked are kept rather
// than overwritten with the model's stale copy.
//
// One session has one ReadLog (the model of another session read other
// things). It is safe for concurrent use; a nil *ReadLog remembers nothing.
type ReadLog struct {
	mu    sync.Mutex
	texts map[string]string // absolute, resolved path → text
}

// NewReadLog returns an empty log.
func NewReadLog() *ReadLog { return &ReadLog{texts: map[string]string{}} }

// Record notes that the model now knows path to hold text.
func (l *ReadLog) Record(path, text string) {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.texts[path] = text
}

// Lookup returns the text the model last knew path to hold.
func (l *ReadLog) Lookup(path string) (string, bool) {
	if l == nil {
		return "", false
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	text, ok := l.texts[path]
	return text, ok
}

package mcp

import (
	"bytes"
	"strings"
	"sync"

	"go.uber.org/zap"
)

const (
	stderrKeepLines = 20  // lines kept for error messages
	stderrLineCap   = 400 // bytes kept of one line
)

// stderrTail receives a server's stderr: each line goes to the log, and the
// last few are kept to explain a crash. A server that never ends a line
// cannot grow it without bound: a partial line is flushed at the cap.
type stderrTail struct {
	log *zap.Logger

	mu      sync.Mutex
	partial []byte
	lines   []string // ring, oldest first
}

func newStderrTail(log *zap.Logger) *stderrTail { return &stderrTail{log: log} }

// Write implements io.Writer for exec.Cmd.Stderr.
func (t *stderrTail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			room := stderrLineCap - len(t.partial)
			if len(p) >= room {
				t.partial = append(t.partial, p[:max(room, 0)]...)
				t.flushLocked()
				p = nil // an overlong line is cut into pieces of at most the cap
				continue
			}
			t.partial = append(t.partial, p...)
			break
		}
		line := p[:i]
		if room := stderrLineCap - len(t.partial); len(line) > room {
			line = line[:max(room, 0)]
		}
		t.partial = append(t.partial, line...)
		t.flushLocked()
		p = p[i+1:]
	}
	return n, nil
}

func (t *stderrTail) flushLocked() {
	line := strings.TrimRight(string(t.partial), "\r")
	t.partial = t.partial[:0]
	if strings.TrimSpace(line) == "" {
		return
	}
	t.log.Info("server stderr", zap.String("line", line))
	t.lines = append(t.lines, line)
	if len(t.lines) > stderrKeepLines {
		t.lines = append(t.lines[:0:0], t.lines[len(t.lines)-stderrKeepLines:]...)
	}
}

// Last returns up to n of the last lines, joined by " | " for a one-line
// error message.
func (t *stderrTail) Last(n int) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	lines := t.lines
	if len(t.partial) > 0 {
		lines = append(append([]string(nil), lines...), string(t.partial))
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}

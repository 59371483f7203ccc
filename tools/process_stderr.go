package tools

import (
	"io"
	"os"
	"time"
)

// splitStream is a command's stderr kept apart from its stdout: a pipe
// drained into a bounded buffer, with the same deadline as the output's
// (a descendant that escaped the group may hold it open). A nil
// *splitStream is no stream: every method does nothing.
type splitStream struct {
	r, w    *os.File
	buf     *headTailBuffer
	drained chan struct{}
}

func newSplitStream() (*splitStream, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	return &splitStream{r: r, w: w, buf: newHeadTailBuffer(bashMaxOutput), drained: make(chan struct{})}, nil
}

// drain starts reading, once the command has started (its copy of the
// write end is then the only one left open).
func (s *splitStream) drain() {
	if s == nil {
		return
	}
	s.w.Close()
	go func() { // owner: the command's run; ends at EOF or at finish's deadline
		defer close(s.drained)
		_, _ = io.Copy(s.buf, s.r)
	}()
}

// close gives back both ends of a stream whose command never started.
func (s *splitStream) close() {
	if s == nil {
		return
	}
	s.r.Close()
	s.w.Close()
}

// finish waits (a bounded time) for the rest and returns what was read.
func (s *splitStream) finish() string {
	if s == nil {
		return ""
	}
	_ = s.r.SetReadDeadline(time.Now().Add(bashDrainGrace))
	<-s.drained
	s.r.Close()
	return s.buf.String()
}

package tools

import (
	"bytes"
	"context"
	"io"
)

// Reading files for grep in bounded memory. A file is read in chunks into
// one buffer per reader; the matcher runs over runs of whole lines (a
// segment), and the part of a line cut by the chunk's end is carried to the
// front before the next read. Whether a file is binary is decided on its
// first 8 KiB, before anything else is read, so a 2 GB sparse file costs one
// chunk. A line longer than maxScanLineBytes is matched (and shown) on its
// first maxScanLineBytes; the rest of it is skipped.

const (
	grepSniffBytes = 8 << 10  // a NUL byte in these makes a file binary (as git and ripgrep)
	grepChunkBytes = 64 << 10 // the buffer's first size: most source files fit whole
	// grepStreamBytes is the buffer of a file larger than one chunk.
	grepStreamBytes = 256 << 10
	// maxScanLineBytes bounds the buffer, and so a reader's memory: the
	// longest line matched whole.
	maxScanLineBytes = 4 << 20
)

// segmentReader hands out a file's bytes as segments: one or more whole
// lines (each ending in '\n', but for the file's last line), or the first
// maxScanLineBytes of a longer line (long; the rest of that line is skipped
// before the next segment).
type segmentReader struct {
	r       io.Reader
	ctx     context.Context // checked before every read: a 2 GB file is not read to its end once cancelled
	start   int64           // the offset in r of buf[0]: of the segment next returns
	maxLine int             // the buffer's largest size: maxScanLineBytes
	buf     []byte          // len(buf) is the capacity in use
	n       int             // bytes held in buf
	used    int             // bytes of buf handed out by the last next
	skip    bool            // drop bytes up to the next newline first
	eof     bool
	err     error
	// shortIsEOF: r is a regular file, where a read returns fewer bytes
	// than asked only at the end; the read that would return 0 is saved
	// (one system call in four for a small file: open, read, close).
	shortIsEOF bool
}

// newSegmentReader reads r into buf (len(buf) bytes at first; a new
// chunk-sized one when empty).
func newSegmentReader(ctx context.Context, r io.Reader, buf []byte) segmentReader {
	if len(buf) == 0 {
		buf = make([]byte, grepChunkBytes)
	}
	return segmentReader{ctx: ctx, r: r, maxLine: max(maxScanLineBytes, len(buf)), buf: buf}
}

// fill reads once into the free part of buf.
func (s *segmentReader) fill() {
	if err := s.ctx.Err(); err != nil {
		s.err = err
		return
	}
	want := len(s.buf) - s.n
	m, err := s.r.Read(s.buf[s.n:])
	s.n += m
	switch {
	case err == io.EOF:
		s.eof = true
	case err == nil && s.shortIsEOF && m > 0 && m < want:
		s.eof = true
	case err != nil:
		s.err = err
	case m == 0:
		s.eof = true // a reader must not return 0, nil; do not spin on it
	}
}

// fillFirst reads until the buffer is full or the file ends: a file that
// fits is then one segment, searched in one pass.
func (s *segmentReader) fillFirst() {
	for s.n < len(s.buf) && !s.eof && s.err == nil {
		s.fill()
	}
}

// whole reports whether the whole file is in the buffer.
func (s *segmentReader) whole() bool { return s.eof && s.used == 0 && !s.skip }

// next returns the next segment, valid until the following call; nil at
// the end of the file or on a read error (then s.err is set).
func (s *segmentReader) next() (seg []byte, long bool) {
	if s.used > 0 {
		s.n = copy(s.buf, s.buf[s.used:s.n])
		s.start += int64(s.used)
		s.used = 0
	}
	if s.skip && !s.skipLine() {
		return nil, false
	}
	for {
		if s.eof || s.err != nil {
			if s.n == 0 || s.err != nil {
				return nil, false
			}
			s.used = s.n // the rest: whole lines and the last one, unterminated
			return s.buf[:s.n], false
		}
		if cut := bytes.LastIndexByte(s.buf[:s.n], '\n') + 1; cut > 0 {
			s.used = cut
			return s.buf[:cut], false
		}
		if s.n == len(s.buf) {
			if len(s.buf) < s.maxLine {
				// One line fills the buffer: grow it, up to the cap.
				grown := make([]byte, min(2*len(s.buf), s.maxLine))
				copy(grown, s.buf[:s.n])
				s.buf = grown
			} else {
				s.used, s.skip = s.n, true
				return s.buf[:s.n], true
			}
		}
		s.fill()
	}
}

// skipLine drops bytes through the next newline; false when the file (or
// the reading) ended first.
func (s *segmentReader) skipLine() bool {
	for {
		if i := bytes.IndexByte(s.buf[:s.n], '\n'); i >= 0 {
			s.n = copy(s.buf, s.buf[i+1:s.n])
			s.start += int64(i + 1)
			s.skip = false
			return true
		}
		s.start += int64(s.n)
		s.n = 0
		if s.eof || s.err != nil {
			return false
		}
		s.fill()
	}
}

// eachLine calls yield with every line of a segment (without its newline)
// and its number, first being the number of the segment's first line; it
// returns the number of the line after the segment, or -1 when yield
// stopped.
func eachLine(seg []byte, long bool, first int, yield func(no int, line []byte) bool) int {
	if long {
		if !yield(first, seg) {
			return -1
		}
		return first + 1
	}
	no := first
	for len(seg) > 0 {
		line := seg
		rest := []byte(nil)
		if i := bytes.IndexByte(seg, '\n'); i >= 0 {
			line, rest = seg[:i], seg[i+1:]
		}
		if !yield(no, line) {
			return -1
		}
		no++
		seg = rest
	}
	return no
}

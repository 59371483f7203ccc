package tools

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"unicode/utf8"
)

// Reading a window of a file's lines from disk without reading the file
// whole: a buffered reader over the file handle opened through the
// workspace root (Workspace.openRegular: os.Root, no FIFO or device) skips
// to the window, reads its lines, and stops.

const (
	// wholeWindowBytes: a file up to this size is read whole for a window
	// (one small copy), so read_file can record the whole text as the base
	// of a later write_file's merge (ReadLog). A larger file is streamed.
	wholeWindowBytes = 1 << 20
	// streamBufBytes is the streaming reader's buffer: the most read past
	// the window's end.
	streamBufBytes = 64 << 10
	// ctxCheckLines: the context is checked every so many lines skipped.
	ctxCheckLines = 4096
)

var _ LineReader = (*DiskDocuments)(nil)

// ReadLines implements LineReader: a small file is read whole and sliced
// (HasWhole); a larger one, of any size, is streamed up to the window's end.
func (d *DiskDocuments) ReadLines(ctx context.Context, path string, req LineRequest) (LineWindow, error) {
	if err := ctx.Err(); err != nil {
		return LineWindow{}, err
	}
	path, err := d.check(path, false)
	if err != nil {
		return LineWindow{}, err
	}
	f, fi, err := d.Workspace.openRegular(path)
	if errors.Is(err, fs.ErrNotExist) {
		return LineWindow{Path: path}, nil
	}
	if err != nil {
		return LineWindow{}, err
	}
	defer f.Close()
	var r io.Reader = f
	if fi.Size() <= wholeWindowBytes {
		data, err := io.ReadAll(io.LimitReader(f, wholeWindowBytes+1))
		if err != nil {
			return LineWindow{}, fmt.Errorf("read %s: %w", path, err)
		}
		if len(data) <= wholeWindowBytes {
			w := WindowOf(string(data), req)
			w.Path = path
			return w, nil
		}
		// It grew since the stat: not whole, so streamed after all.
		r = io.MultiReader(bytes.NewReader(data), f)
	}
	w, err := streamLines(ctx, r, req)
	if err != nil {
		return LineWindow{}, fmt.Errorf("read %s: %w", path, err)
	}
	w.Path, w.Exists, w.Size, w.ModTime = path, true, fi.Size(), fi.ModTime()
	return w, nil
}

// streamLines reads the requested window of r's lines, reading r no
// further than the window's end and one buffer. Whether r is binary is
// decided on its first 8 KiB, as isBinary does for a whole text. Total is
// known when r ends within that buffer.
func streamLines(ctx context.Context, r io.Reader, req LineRequest) (LineWindow, error) {
	br := bufio.NewReaderSize(r, streamBufBytes)
	w := LineWindow{Exists: true, Total: -1}
	head, err := br.Peek(binarySniffBytes)
	if err != nil && !errors.Is(err, io.EOF) {
		return w, err
	}
	if isBinary(string(head)) {
		w.Binary = true
		return w, nil
	}
	line := 1 // the number of the next line
	for line < req.Offset {
		if line%ctxCheckLines == 0 {
			if err := ctx.Err(); err != nil {
				return w, err
			}
		}
		ok, err := skipLine(br)
		if err != nil {
			return w, err
		}
		if !ok {
			w.Total = line - 1
			return w, nil
		}
		line++
	}
	held := 0
	for len(w.Lines) < req.Limit {
		l, ok, err := readLine(br, req.MaxLineBytes)
		if err != nil {
			return w, err
		}
		if !ok {
			w.Total = line - 1
			return w, nil
		}
		if !w.fits(held, l, req) {
			line++ // that line, read, follows the window
			break
		}
		held += len(l.Text)
		w.Lines = append(w.Lines, l)
		line++
	}
	// Count the lines left when the file ends within one more buffer: the
	// paging note can then say how many; past that, counting would read on.
	rest, err := br.Peek(streamBufBytes)
	switch {
	case errors.Is(err, io.EOF):
		w.Total = line - 1 + bytes.Count(rest, []byte{'\n'})
		if len(rest) > 0 && rest[len(rest)-1] != '\n' {
			w.Total++ // a last line without a newline
		}
	case err != nil:
		return w, err
	}
	return w, nil
}

// skipLine reads past one line; false at the end of the input (a last
// line without a newline is a line).
func skipLine(br *bufio.Reader) (bool, error) {
	seen := false
	for {
		chunk, err := br.ReadSlice('\n')
		seen = seen || len(chunk) > 0
		switch {
		case err == nil:
			return true, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue // a line longer than the buffer
		case errors.Is(err, io.EOF):
			return seen, nil
		default:
			return false, err
		}
	}
}

// readLine reads one line, keeping at most its first max+utf8.UTFMax
// bytes (all of it when max is 0) and counting the rest; a trailing \r is
// dropped. false at the end of the input.
func readLine(br *bufio.Reader, max int) (Line, bool, error) {
	var kept []byte
	full, seen := 0, false
	var last byte // the line's last byte before the newline, for \r
	for {
		chunk, err := br.ReadSlice('\n')
		ended := err == nil
		if ended {
			chunk = chunk[:len(chunk)-1]
		}
		seen = seen || len(chunk) > 0 || ended
		if len(chunk) > 0 {
			last = chunk[len(chunk)-1]
			full += len(chunk)
			room := len(chunk)
			if max > 0 {
				room = min(room, max+utf8.UTFMax-len(kept))
			}
			if room > 0 {
				kept = append(kept, chunk[:room]...)
			}
		}
		switch {
		case ended || errors.Is(err, io.EOF):
			if !seen {
				return Line{}, false, nil
			}
			if last == '\r' {
				full--
				if len(kept) > full {
					kept = kept[:full]
				}
			}
			return cutLine(string(kept), full, max), true, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		default:
			return Line{}, false, err
		}
	}
}

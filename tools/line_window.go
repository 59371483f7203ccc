package tools

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// A window of a file's lines, as read_file shows them: the request, the
// result, the in-memory slicer an editor's buffer uses, and the fallback
// for Documents without a LineReader.

// LineRequest asks for lines Offset.. (1-based) of a file, at most Limit.
type LineRequest struct {
	Offset, Limit int
	// MaxLineBytes cuts longer lines at a rune boundary (Line.Cut says how
	// much was left out); 0: no cut.
	MaxLineBytes int
	// MaxBytes ends the window before the line that would bring its lines'
	// text over it (there is always one line); 0: no bound.
	MaxBytes int
}

// Line is one line of a window.
type Line struct {
	Text string // without its line break (\n, or the \r\n of a CRLF file)
	Cut  int    // bytes of the line left out past LineRequest.MaxLineBytes
}

// LineWindow is the lines a LineReader read, and what it saw of the file.
type LineWindow struct {
	Path   string // absolute, cleaned path inside the workspace
	Exists bool
	Size   int64 // bytes in the file
	// ModTime is the file's modification time when a streamed window was
	// read (zero for a text held whole).
	ModTime time.Time
	// Binary: the file's first 8 KiB look binary (isBinary); Lines is empty.
	Binary bool
	Lines  []Line // from the request's Offset
	// Total is the file's number of lines when the reader saw its end, -1
	// when it stopped before (more lines follow the window then).
	Total int
	// Whole is the file's whole text when the reader held it anyway (an
	// open buffer, a small file: HasWhole); a streamed window has only its
	// lines. read_file records a whole text as the base of a later
	// write_file's merge (ReadLog), never a window.
	Whole    string
	HasWhole bool
}

// ReadWindow reads a window of path's lines through docs: its LineReader
// when it has one, else the whole text (Read, under the size policy), sliced.
func ReadWindow(ctx context.Context, docs Documents, path string, req LineRequest) (LineWindow, error) {
	if lr, ok := docs.(LineReader); ok {
		return lr.ReadLines(ctx, path, req)
	}
	doc, err := docs.Read(ctx, path)
	if err != nil {
		return LineWindow{}, err
	}
	if !doc.Exists {
		return LineWindow{Path: doc.Path}, nil
	}
	w := WindowOf(doc.Text, req)
	w.Path = doc.Path
	return w, nil
}

// WindowOf slices the requested lines out of a text held in memory: the
// lines are substrings of text (nothing of it is copied) and the total is
// counted without allocating. Whole is text.
func WindowOf(text string, req LineRequest) LineWindow {
	w := LineWindow{Exists: true, Size: int64(len(text)), Total: countLines(text), Whole: text, HasWhole: true}
	if isBinary(text) {
		w.Binary = true
		return w
	}
	rest := text
	for i := 1; i < req.Offset && rest != ""; i++ {
		nl := strings.IndexByte(rest, '\n')
		if nl < 0 {
			rest = ""
			break
		}
		rest = rest[nl+1:]
	}
	held := 0
	for rest != "" && len(w.Lines) < req.Limit {
		content, next := rest, ""
		if nl := strings.IndexByte(rest, '\n'); nl >= 0 {
			content, next = rest[:nl], rest[nl+1:]
		}
		content = strings.TrimSuffix(content, "\r") // CRLF files read like LF ones
		l := cutLine(content, len(content), req.MaxLineBytes)
		if !w.fits(held, l, req) {
			break
		}
		held += len(l.Text)
		w.Lines = append(w.Lines, l)
		rest = next
	}
	return w
}

// fits reports whether l may join a window holding held bytes of text.
func (w *LineWindow) fits(held int, l Line, req LineRequest) bool {
	return req.MaxBytes <= 0 || len(w.Lines) == 0 || held+len(l.Text) <= req.MaxBytes
}

// cutLine makes a Line of the first bytes of a line full bytes long (s
// holds at least its first max+utf8.UTFMax bytes, or all of it), cut at
// max bytes on a rune boundary when longer. max 0: no cut.
func cutLine(s string, full, max int) Line {
	if max <= 0 || full <= max {
		return Line{Text: s}
	}
	n := max
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return Line{Text: s[:n], Cut: full - n}
}

// String renders the line as read_file shows it, with a marker saying how
// much of a cut line was left out.
func (l Line) String() string {
	if l.Cut == 0 {
		return l.Text
	}
	return fmt.Sprintf("%s … [line cut: %d more bytes]", l.Text, l.Cut)
}

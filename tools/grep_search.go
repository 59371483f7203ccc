package tools

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/bmatcuk/doublestar/v4"
)

// SearchOptions configures Search (and the grep tool, which adds the cap on
// what the model is shown).
type SearchOptions struct {
	Pattern    string // RE2 syntax, matched against each line on its own
	IgnoreCase bool
	// Glob filters files by path relative to the searched directory
	// (doublestar syntax); a pattern without '/' matches the file name.
	Glob    string
	Workers int // goroutines walking and reading; 0 means GOMAXPROCS*2
}

// SearchStats counts what a search saw.
type SearchStats struct {
	FilesSearched int // files read and matched (text files that passed the glob)
	BinarySkipped int // files with a NUL byte in their first 8 KiB
	OtherSkipped  int // unreadable files
	MatchedFiles  int
	MatchedLines  int // lines with at least one match, as grep -c counts them
}

// Search counts the lines matching opts.Pattern in the files under dir (or
// in dir itself when it is a file) by the grep tool's rules: .gitignore
// files at and below dir honoured, .git, symlinks and binary files skipped.
// It is the grep tool's engine without the output cap, for benchmarks and
// callers that need whole counts. dir is the workspace: nothing outside it
// is read.
func Search(ctx context.Context, dir string, opts SearchOptions) (SearchStats, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return SearchStats{}, err
	}
	m, err := compileLineMatcher(opts.Pattern, opts.IgnoreCase)
	if err != nil {
		return SearchStats{}, err
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return SearchStats{}, err
	}
	// The workspace is dir, or the directory holding it when it is a file.
	rootDir, file := abs, ""
	if !fi.IsDir() {
		rootDir, file = filepath.Split(abs)
	}
	ws, err := NewWorkspace(rootDir)
	if err != nil {
		return SearchStats{}, err
	}
	defer ws.Close()
	start := filepath.Join(ws.Roots()[0], file)
	return runSearch(ctx, ws, start, m, opts.Glob, opts.Workers, 0, nil)
}

// fileMatches is what runSearch reports for a file with matches.
type fileMatches struct {
	abs   string
	nums  []int // line numbers (1-based) of the first keepLines matching lines
	total int   // all matching lines in the file
	// lines calls yield with the file's lines from the first, in order,
	// until it returns false; valid only during the callback.
	lines func(yield func(no int, line []byte) bool)
}

// pooledBufferMax: buffers grown larger for a long line are left to the GC.
const pooledBufferMax = grepStreamBytes

var readBufferPool = sync.Pool{New: func() any {
	b := make([]byte, grepChunkBytes)
	return &b
}}

// runSearch searches every file at or below start (an absolute path inside
// ws) that passes the glob filter and calls onFile, concurrently, for each
// file with at least one match, with the line numbers of its first
// keepLines matching lines.
func runSearch(ctx context.Context, ws *Workspace, start string, m *lineMatcher, glob string, workers, keepLines int, onFile func(*fileMatches)) (SearchStats, error) {
	keep, err := globFilter(glob)
	if err != nil {
		return SearchStats{}, err
	}
	var searched, binary, other, files, lines atomic.Int64
	// A walk from above a credential store (the workspace at $HOME) does
	// not read it: its lines would go to the model. Searching the store
	// itself is asked for as HIGH (grep's Describe).
	credentials := newWalkCredentials()
	startInStore := credentials.full(start)
	visit := func(f walkedFile) {
		if !startInStore && f.isCredential(credentials) {
			other.Add(1)
			return
		}
		if glob != "" {
			rel := filepath.Base(f.Abs)
			if f.Abs != start {
				rel = filepath.ToSlash(strings.TrimPrefix(f.Abs, start+string(filepath.Separator)))
			}
			if !keep(rel) {
				return
			}
		}
		bufp := readBufferPool.Get().(*[]byte)
		defer func() {
			if len(*bufp) <= pooledBufferMax {
				readBufferPool.Put(bufp)
			}
		}()
		outcome, total := searchFile(ctx, f, m, keepLines, bufp, onFile)
		switch outcome {
		case fileUnreadable:
			other.Add(1)
		case fileBinary:
			binary.Add(1)
		default:
			searched.Add(1)
			if total > 0 {
				files.Add(1)
				lines.Add(int64(total))
			}
		}
	}
	err = walkFiles(ctx, ws, start, workers, visit)
	stats := SearchStats{
		FilesSearched: int(searched.Load()), BinarySkipped: int(binary.Load()), OtherSkipped: int(other.Load()),
		MatchedFiles: int(files.Load()), MatchedLines: int(lines.Load()),
	}
	return stats, err
}

type fileOutcome int

const (
	fileSearched fileOutcome = iota
	fileBinary
	fileUnreadable
)

// searchFile matches one file in bounded memory (grep_read.go) and, when
// it has matches and onFile is set, reports them while the file is still
// open. *bufp is the reader's buffer, kept (possibly grown) for the next
// file.
func searchFile(ctx context.Context, f walkedFile, m *lineMatcher, keepLines int, bufp *[]byte, onFile func(*fileMatches)) (fileOutcome, int) {
	file, err := f.open()
	if err != nil {
		return fileUnreadable, 0
	}
	defer file.Close()
	// sr, fm and restart stay on this goroutine's stack (a file without
	// matches allocates nothing): only what is handed to onFile is copied
	// to the heap, in the branch that calls it.
	sr := newSegmentReader(ctx, file, *bufp)
	sr.shortIsEOF = true // the walk visits regular files only
	defer func() { *bufp = sr.buf }()
	sr.fillFirst()
	if sr.err != nil {
		return fileUnreadable, 0
	}
	if bytes.IndexByte(sr.buf[:min(sr.n, grepSniffBytes)], 0) >= 0 {
		return fileBinary, 0
	}
	whole := sr.whole()
	if !whole && len(sr.buf) < grepStreamBytes {
		grown := make([]byte, grepStreamBytes)
		sr.n = copy(grown, sr.buf[:sr.n])
		sr.buf = grown
	}
	fm := fileMatches{abs: f.Abs}
	var wholeData []byte // the file, when it fits the buffer
	lineNo := 1          // the number of the segment's first line, while numbers are needed
	// Where the output's re-read starts: the start of a segment at least
	// grepMaxContext lines before the first kept match, found among the
	// starts of the last segments (each holds a line at least).
	var recent [grepMaxContext + 1]segmentStart
	nRecent := 0
	var restart segmentStart
	for {
		seg, long := sr.next()
		if seg == nil {
			break
		}
		if whole {
			wholeData = seg
		}
		if len(fm.nums) == 0 {
			recent[nRecent%len(recent)] = segmentStart{sr.start, lineNo}
			nRecent++
		}
		at, atLine := 0, lineNo
		m.scan(seg, func(s, _ int) bool {
			fm.total++
			if len(fm.nums) < keepLines {
				atLine += countNewlines(seg[at:s])
				at = s
				fm.nums = append(fm.nums, atLine)
				if len(fm.nums) == 1 {
					restart = restartPoint(recent[:min(nRecent, len(recent))], atLine-grepMaxContext)
				}
			}
			return true
		})
		if len(fm.nums) < keepLines {
			if long {
				lineNo++
			} else {
				lineNo = atLine + countNewlines(seg[at:])
			}
		}
	}
	if sr.err != nil {
		return fileUnreadable, 0
	}
	if fm.total > 0 && onFile != nil {
		found := fm
		if whole {
			data := wholeData
			found.lines = func(yield func(int, []byte) bool) { eachLine(data, false, 1, yield) }
		} else {
			from, buf := restart, sr.buf
			found.lines = func(yield func(int, []byte) bool) { rereadLines(ctx, file, from, buf, yield) }
		}
		onFile(&found)
	}
	return fileSearched, fm.total
}

// segmentStart is where a segment starts: its offset in the file and the
// number of its first line.
type segmentStart struct {
	off  int64
	line int
}

// restartPoint is the latest of starts (in any order) whose line is at or
// before line, else the earliest.
func restartPoint(starts []segmentStart, line int) segmentStart {
	best, earliest := segmentStart{line: -1}, starts[0]
	for _, s := range starts {
		if s.line <= line && s.line > best.line {
			best = s
		}
		if s.line < earliest.line {
			earliest = s
		}
	}
	if best.line < 0 {
		return earliest
	}
	return best
}

// rereadLines reads the file again from a segment start, cutting lines as
// the search did (so with the same line numbers), calling yield per line.
// Lines are whole from any line start, so the segments need not be the
// search's.
func rereadLines(ctx context.Context, file io.ReaderAt, from segmentStart, buf []byte, yield func(int, []byte) bool) {
	sr := newSegmentReader(ctx, io.NewSectionReader(file, from.off, math.MaxInt64-from.off), buf)
	no := from.line
	for no > 0 {
		seg, long := sr.next()
		if seg == nil {
			return
		}
		no = eachLine(seg, long, no, yield)
	}
}

// globFilter returns the file filter for a grep glob: a pattern without '/'
// matches the file name at any depth, one with '/' the path relative to the
// searched directory.
func globFilter(glob string) (func(rel string) bool, error) {
	if glob == "" {
		return func(string) bool { return true }, nil
	}
	if !doublestar.ValidatePattern(glob) {
		return nil, fmt.Errorf("invalid glob %q (doublestar syntax: *, **, ?, [abc], {a,b})", glob)
	}
	if !strings.Contains(glob, "/") {
		return func(rel string) bool {
			return doublestar.MatchUnvalidated(glob, rel[strings.LastIndexByte(rel, '/')+1:])
		}, nil
	}
	glob = strings.TrimPrefix(glob, "./")
	return func(rel string) bool { return doublestar.MatchUnvalidated(glob, rel) }, nil
}

package tools

import (
	"bytes"
	"context"
	"errors"
	"fmt"
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
	OtherSkipped  int // unreadable or over 256 MiB
	MatchedFiles  int
	MatchedLines  int // lines with at least one match, as grep -c counts them
}

// Search counts the lines matching opts.Pattern in the files under dir (or
// in dir itself when it is a file) by the grep tool's rules: .gitignore
// files at and below dir honoured, .git, symlinks and binary files skipped.
// It is the grep tool's engine without the output cap, for benchmarks and
// callers that need whole counts.
func Search(ctx context.Context, dir string, opts SearchOptions) (SearchStats, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return SearchStats{}, err
	}
	m, err := compileLineMatcher(opts.Pattern, opts.IgnoreCase)
	if err != nil {
		return SearchStats{}, err
	}
	return runSearch(ctx, abs, abs, m, opts.Glob, opts.Workers, 0, nil)
}

// lineSpan is one line of a buffer, without its newline.
type lineSpan struct{ start, end int }

// fileMatches is what runSearch reports for a file with matches.
type fileMatches struct {
	abs   string
	buf   []byte     // the file's bytes: valid only during the callback
	lines []lineSpan // the first keepLines matching lines
	total int        // all matching lines in the file
}

const (
	grepSniffBytes     = 8 << 10
	maxSearchFileBytes = 256 << 20
	pooledBufferMax    = 8 << 20 // larger buffers are left to the GC
)

var readBufferPool = sync.Pool{New: func() any {
	b := make([]byte, 0, 64<<10)
	return &b
}}

var errFileTooLarge = errors.New("file too large to search")

// runSearch searches every file at or below start (ignore rules read from
// base down) that passes the glob filter and calls onFile, concurrently, for each file with at least
// one match, keeping the bounds of its first keepLines matching lines.
func runSearch(ctx context.Context, base, start string, m *lineMatcher, glob string, workers, keepLines int, onFile func(*fileMatches)) (SearchStats, error) {
	keep, err := globFilter(glob)
	if err != nil {
		return SearchStats{}, err
	}
	var searched, binary, other, files, lines atomic.Int64
	visit := func(f walkedFile) {
		rel := filepath.Base(f.Abs)
		if f.Abs != start {
			rel = filepath.ToSlash(strings.TrimPrefix(f.Abs, start+string(filepath.Separator)))
		}
		if !keep(rel) {
			return
		}
		bufp := readBufferPool.Get().(*[]byte)
		defer func() {
			if cap(*bufp) <= pooledBufferMax {
				readBufferPool.Put(bufp)
			}
		}()
		buf, err := readWhole(f.Abs, (*bufp)[:0])
		*bufp = buf[:0]
		if err != nil {
			other.Add(1)
			return
		}
		if bytes.IndexByte(buf[:min(len(buf), grepSniffBytes)], 0) >= 0 {
			binary.Add(1)
			return
		}
		searched.Add(1)
		fm := fileMatches{abs: f.Abs, buf: buf}
		m.scan(buf, func(s, e int) bool {
			fm.total++
			if len(fm.lines) < keepLines {
				fm.lines = append(fm.lines, lineSpan{s, e})
			}
			return true
		})
		if fm.total > 0 {
			files.Add(1)
			lines.Add(int64(fm.total))
			if onFile != nil {
				onFile(&fm)
			}
		}
	}
	err = walkFiles(ctx, base, start, workers, visit)
	stats := SearchStats{
		FilesSearched: int(searched.Load()), BinarySkipped: int(binary.Load()), OtherSkipped: int(other.Load()),
		MatchedFiles: int(files.Load()), MatchedLines: int(lines.Load()),
	}
	return stats, err
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

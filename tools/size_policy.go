package tools

import (
	"errors"
	"fmt"
)

// MaxFileBytes is the one size limit on file text the tools hold whole: a
// Documents' Read (the disk, an editor's open buffer, an ACP client's
// buffer) refuses a longer text, and edit_file and write_file refuse a
// result longer than it. Reading a window of a file (read_file with
// offset/limit through a LineReader) and grep stream, in memory bounded by
// the window and the longest line, and work on files of any size.
//
// Why 32 MiB: an edit holds the text before, the text after and the
// editor's copy of it, so its cost is about 3× the file (the goal issue 15
// sets for the edit path); at the limit that is about 96 MiB above an idle
// daemon of ~15 MiB, which a laptop running an editor, a language server
// and the agent can spare. The largest hand-written or generated sources
// worth editing as text (an SQLite amalgamation is 9 MiB, generated
// protobuf or bindings files a few MiB) fit with room to spare, and the
// 20 MB edits the benchmarks measure are inside it. A longer file is data
// (logs, dumps, datasets): several million tokens, past any model's
// context, so reading it whole is of no use to the model anyway.
const MaxFileBytes = 32 << 20

// ErrTooLarge is matched (errors.Is) by every *TooLargeError.
var ErrTooLarge = errors.New("file too large")

// TooLargeError says a file (or the text an edit or write would leave in
// it) is over MaxFileBytes, or over a front end's lower limit, and what the
// model can do instead.
type TooLargeError struct {
	Path string // as the model names it: relative to the workspace
	Size int64  // bytes of the text refused
	// Result is set when the text refused is what an edit or write would
	// leave, not what the file holds now.
	Result bool
	// Limit is the limit exceeded when lower than MaxFileBytes (0:
	// MaxFileBytes), and Why says where it comes from.
	Limit int64
	Why   string
}

func (e *TooLargeError) Error() string {
	limit, why := e.Limit, ""
	if limit == 0 {
		limit = MaxFileBytes
	}
	if e.Why != "" {
		why = " (" + e.Why + ")"
	}
	if e.Result {
		return fmt.Sprintf("%s would be %s (%d bytes) after this change, over the %s limit on files the agent edits or writes%s; "+
			"keep it smaller, split it into several files, or produce it with run_bash (a script or a generator) instead",
			e.Path, formatBytes(e.Size), e.Size, formatBytes(limit), why)
	}
	return fmt.Sprintf("%s is %s (%d bytes), over the %s limit on files the agent reads whole, edits or writes%s; "+
		"read_file with offset and limit reads a window of its lines, grep searches it, "+
		"and run_bash (sed, head, split) can process or change it",
		e.Path, formatBytes(e.Size), e.Size, formatBytes(limit), why)
}

// Is makes errors.Is(err, ErrTooLarge) true.
func (e *TooLargeError) Is(target error) bool { return target == ErrTooLarge }

// CheckSize is the policy's one check: nil when size bytes of rel's text
// are within MaxFileBytes, else a *TooLargeError. result says the text is
// what an edit or write would leave.
func CheckSize(rel string, size int64, result bool) error {
	if size <= MaxFileBytes {
		return nil
	}
	return &TooLargeError{Path: rel, Size: size, Result: result}
}

// formatBytes renders a size for the model: bytes, KiB or MiB.
func formatBytes(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

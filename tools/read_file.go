package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agent-lsp/agent-lsp/permission"
)

const (
	readDefaultLimit = 2000      // lines per call when no limit is given
	readMaxLineBytes = 2000      // longer lines are cut with a marker
	readMaxOutput    = 256 << 10 // bytes of numbered output per call
)

type readFileArgs struct {
	Path   string `json:"path"`
	Offset int    `json:"offset,omitempty"`
	Limit  int    `json:"limit,omitempty"`
}

type readFileTool struct{}

// NewReadFile returns the read_file tool: numbered lines of a text file,
// a window of them at a time.
func NewReadFile() Tool { return readFileTool{} }

func (readFileTool) Name() string { return "read_file" }

func (readFileTool) Description() string {
	return "Read a text file. Output is numbered lines (`     1\\tcode`; the number and tab are not part of the file). " +
		"Returns up to 2000 lines from offset (1-based line number); lines over 2000 chars are cut. " +
		"For large files, page with offset/limit as the note at the end says. Binary files are refused. " +
		"Read a file before editing it."
}

func (readFileTool) Schema() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{` +
		`"path":{"type":"string","description":"File path, relative to the workspace root"},` +
		`"offset":{"type":"integer","description":"First line to read, 1-based (default 1)"},` +
		`"limit":{"type":"integer","description":"Max lines to read (default 2000)"}},` +
		`"required":["path"],"additionalProperties":false}`)
}

// OutputLimit lets read_file's own paging note survive the registry's
// truncation: read_file stops at a line boundary and says where to go on.
func (readFileTool) OutputLimit() int { return readMaxOutput + 1024 }

func (readFileTool) Describe(_ context.Context, raw json.RawMessage, env *Env) (permission.Action, error) {
	args, abs, err := readFileParse(raw, env)
	if err != nil {
		return permission.Action{}, err
	}
	rel := env.Workspace.Rel(abs)
	summary := "read " + rel
	if args.Offset > 1 {
		summary += fmt.Sprintf(" from line %d", args.Offset)
	}
	a := permission.Action{
		Tool: "read_file", Summary: summary, Scope: "read_file",
		Risk: permission.Low, ReadOnly: true, Path: rel,
	}
	if CredentialRead(abs) {
		a.Risk, a.Reasons = permission.High, []string{reasonCredentialRead}
	}
	return a, nil
}

func (readFileTool) Run(ctx context.Context, raw json.RawMessage, env *Env) (Result, error) {
	args, abs, err := readFileParse(raw, env)
	if err != nil {
		return Result{}, err
	}
	rel := env.Workspace.Rel(abs)
	if fi, err := env.Workspace.Stat(abs); err == nil && fi.IsDir() {
		return Result{}, directoryError(env.Workspace, abs, rel)
	}
	// A window, not the file: a 20 MB file read 5 lines at a time is
	// streamed to the window's end, an open buffer sliced (LineReader).
	w, err := ReadWindow(ctx, env.Docs, abs, LineRequest{
		Offset: args.Offset, Limit: args.Limit, MaxLineBytes: readMaxLineBytes, MaxBytes: readMaxOutput,
	})
	if err != nil {
		return Result{}, fmt.Errorf("read %s: %w", rel, err)
	}
	if !w.Exists {
		return Result{}, notFoundError(rel)
	}
	if w.Binary {
		return Result{}, fmt.Errorf("binary file (%d bytes); not shown", w.Size)
	}
	out, err := numberLines(w, rel, args.Offset)
	if err != nil {
		return Result{}, err
	}
	// The whole text, even for a window of it, when the reader had it: a
	// later write_file of this file is based on what the model saw
	// (ReadLog). A streamed window is not the file: only the file's size
	// and modification time are recorded, so a later write of a file
	// changed since is refused rather than dropping the change.
	switch {
	case w.HasWhole:
		env.Reads.Record(abs, w.Whole)
	case !w.ModTime.IsZero():
		env.Reads.RecordWindow(abs, w.Size, w.ModTime)
	}
	return Result{Output: out}, nil
}

func readFileParse(raw json.RawMessage, env *Env) (readFileArgs, string, error) {
	var args readFileArgs
	if err := decodeArgs(raw, &args); err != nil {
		return args, "", err
	}
	if args.Offset < 0 {
		return args, "", fmt.Errorf("offset must be a line number ≥ 1, got %d", args.Offset)
	}
	if args.Limit < 0 {
		return args, "", fmt.Errorf("limit must be ≥ 1, got %d", args.Limit)
	}
	if args.Offset == 0 {
		args.Offset = 1 // models often send 0 for "from the start"
	}
	if args.Limit == 0 {
		args.Limit = readDefaultLimit
	}
	abs, err := env.Workspace.Resolve(args.Path)
	if err != nil {
		return args, "", err
	}
	return args, abs, nil
}

// numberLines renders a window read from line offset as `%6d\t` numbered
// lines, at most readMaxOutput bytes, ending with a note on how to read on
// when the file goes further.
func numberLines(w LineWindow, rel string, offset int) (string, error) {
	if w.Size == 0 {
		return "(empty file)", nil
	}
	switch {
	case len(w.Lines) == 0 && w.Total >= 0:
		return "", fmt.Errorf("offset %d is past the end of %s (%d lines)", offset, rel, w.Total)
	case len(w.Lines) == 0:
		return "", fmt.Errorf("offset %d is past the end of %s", offset, rel)
	}
	var b strings.Builder
	line := offset
	for _, l := range w.Lines {
		rendered := fmt.Sprintf("%6d\t%s\n", line, l)
		if b.Len()+len(rendered) > readMaxOutput && b.Len() > 0 {
			break
		}
		b.WriteString(rendered)
		line++
	}
	switch remaining := w.Total - line + 1; {
	case w.Total < 0:
		// The reader stopped at the window: counting the rest would read it.
		fmt.Fprintf(&b, "… more lines follow (the file is %s); call read_file with offset %d to read further\n", formatBytes(w.Size), line)
	case remaining > 0:
		fmt.Fprintf(&b, "… %d more lines; call read_file with offset %d to read further\n", remaining, line)
	}
	return b.String(), nil
}

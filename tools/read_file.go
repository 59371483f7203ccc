package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

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

func (readFileTool) Describe(raw json.RawMessage, env *Env) (permission.Action, error) {
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
	doc, err := env.Docs.Read(ctx, abs)
	if err != nil {
		return Result{}, fmt.Errorf("read %s: %w", rel, err)
	}
	if !doc.Exists {
		return Result{}, notFoundError(rel)
	}
	if isBinary(doc.Text) {
		return Result{}, fmt.Errorf("binary file (%d bytes); not shown", len(doc.Text))
	}
	out, err := numberLines(doc.Text, rel, args.Offset, args.Limit)
	if err != nil {
		return Result{}, err
	}
	// The whole text, even for a window of it: a later write_file of this
	// file is based on what the model saw (ReadLog).
	env.Reads.Record(abs, doc.Text)
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

// numberLines renders lines offset.. of text as `%6d\t` numbered lines, at
// most limit of them and readMaxOutput bytes, ending with a note on how to
// read on when the file goes further.
func numberLines(text, rel string, offset, limit int) (string, error) {
	if text == "" {
		return "(empty file)", nil
	}
	total := countLines(text)
	if offset > total {
		return "", fmt.Errorf("offset %d is past the end of %s (%d lines)", offset, rel, total)
	}
	// Skip to the first wanted line.
	rest := text
	for i := 1; i < offset; i++ {
		nl := strings.IndexByte(rest, '\n')
		rest = rest[nl+1:] // offset ≤ total, so the newline exists
	}
	var b strings.Builder
	line := offset
	for rest != "" && line < offset+limit {
		content := rest
		next := ""
		if nl := strings.IndexByte(rest, '\n'); nl >= 0 {
			content, next = rest[:nl], rest[nl+1:]
		}
		content = strings.TrimSuffix(content, "\r") // CRLF files read like LF ones
		rendered := fmt.Sprintf("%6d\t%s\n", line, cutLine(content))
		if b.Len()+len(rendered) > readMaxOutput && b.Len() > 0 {
			break
		}
		b.WriteString(rendered)
		rest = next
		line++
	}
	if remaining := total - line + 1; remaining > 0 {
		fmt.Fprintf(&b, "… %d more lines; call read_file with offset %d to read further\n", remaining, line)
	}
	return b.String(), nil
}

// cutLine shortens a line past readMaxLineBytes (minified code, data) at a
// rune boundary, with a marker saying how much was left out.
func cutLine(s string) string {
	if len(s) <= readMaxLineBytes {
		return s
	}
	n := readMaxLineBytes
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return fmt.Sprintf("%s … [line cut: %d more bytes]", s[:n], len(s)-n)
}

package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/agent-lsp/agent-lsp/permission"
)

// maxListedMatches bounds the line numbers named in an ambiguity error.
const maxListedMatches = 20

type editFileArgs struct {
	Path       string `json:"path"`
	OldString  string `json:"old_string"`
	NewString  string `json:"new_string"`
	ReplaceAll bool   `json:"replace_all,omitempty"`
}

type editFileTool struct{}

// NewEditFile returns the edit_file tool: replace an exact piece of text.
//
// Matching rules: old_string must occur exactly once unless replace_all. In
// a file whose line breaks are all \r\n, old_string and new_string written
// with \n still match, and the result is written back with \r\n. Whether the
// file ends with a newline is kept as it was. An empty old_string creates
// the file when it does not exist (or fills it when it is empty); on a file
// with text it is an error, since it would match everywhere.
func NewEditFile() Tool { return editFileTool{} }

func (editFileTool) Name() string { return "edit_file" }

func (editFileTool) Description() string {
	return "Replace exact text in a file. old_string must match the file exactly (indentation included, without read_file's " +
		"line-number prefix) and occur once; add surrounding lines to make it unique, or set replace_all to change every " +
		"occurrence. Line endings and the final newline are kept. Empty old_string creates a new file."
}

func (editFileTool) Schema() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{` +
		`"path":{"type":"string","description":"File path, relative to the workspace root"},` +
		`"old_string":{"type":"string","description":"Exact text to replace"},` +
		`"new_string":{"type":"string","description":"Replacement text"},` +
		`"replace_all":{"type":"boolean","description":"Replace every occurrence (default false)"}},` +
		`"required":["path","old_string","new_string"],"additionalProperties":false}`)
}

// editPlan is what an edit_file call would do, computed without changing
// anything: Describe shows it, Run recomputes it against fresh text and
// applies it.
type editPlan struct {
	args  editFileArgs
	abs   string
	rel   string
	doc   Doc
	after string
	lines []int // 1-based line of each replaced occurrence
	// known is what doc.Text and after share at their ends, from where
	// the replacement matched: the diffs compare only what lies between.
	known Unchanged
}

func (p editPlan) creates() bool { return !p.doc.Exists || p.doc.Text == "" }

func planEdit(ctx context.Context, raw json.RawMessage, env *Env) (editPlan, error) {
	var p editPlan
	if err := decodeArgs(raw, &p.args); err != nil {
		return p, err
	}
	args := p.args
	if args.OldString == args.NewString {
		return p, errors.New("old_string and new_string are identical; nothing to change")
	}
	abs, err := env.Workspace.ResolveWrite(args.Path)
	if err != nil {
		return p, err
	}
	p.abs, p.rel = abs, env.Workspace.Rel(abs)
	if fi, err := env.Workspace.Stat(abs); err == nil && fi.IsDir() {
		return p, fmt.Errorf("%s is a directory; give a file path", p.rel)
	}
	p.doc, err = readForEdit(ctx, env, abs)
	if err != nil {
		return p, fmt.Errorf("read %s: %w", p.rel, err)
	}
	if p.doc.Path == "" {
		p.doc.Path = abs
	}

	if args.OldString == "" {
		if p.doc.Exists && p.doc.Text != "" {
			return p, fmt.Errorf("old_string is empty but %s is not; give the exact text to replace (or use write_file to replace the whole file)", p.rel)
		}
		p.after, p.lines = args.NewString, []int{1}
		return p, CheckSize(p.rel, int64(len(p.after)), true) // size policy
	}
	if !p.doc.Exists {
		return p, fmt.Errorf("file not found: %s; use glob to find the right path (or an empty old_string to create it)", p.rel)
	}
	if isBinary(p.doc.Text) {
		return p, fmt.Errorf("%s is a binary file (%d bytes); it cannot be edited as text", p.rel, len(p.doc.Text))
	}
	r, err := planReplace(p.doc.Text, args.OldString, args.NewString, args.ReplaceAll)
	if err != nil {
		return p, fmt.Errorf("%s: %w", p.rel, err)
	}
	p.lines, p.known = r.lines, r.unchanged()
	if e := approvedEdit(ctx, abs); e != nil && e.Before == p.doc.Text && r.is(e.After) {
		// Run of an approved call: the text shown is the text this call
		// makes, so it is used rather than built a second time.
		p.after = e.After
	} else {
		p.after = r.build()
	}
	return p, CheckSize(p.rel, int64(len(p.after)), true) // size policy
}

func (editFileTool) Describe(ctx context.Context, raw json.RawMessage, env *Env) (permission.Action, error) {
	p, err := planEdit(ctx, raw, env)
	if err != nil {
		return permission.Action{}, err
	}
	summary := "edit " + p.rel
	switch {
	case p.creates():
		summary = fmt.Sprintf("edit %s (new file, %d lines)", p.rel, countLines(p.after))
	case len(p.lines) > 1:
		summary = fmt.Sprintf("edit %s (%d replacements)", p.rel, len(p.lines))
	}
	return fileActionKnown("edit_file", summary, p.rel, p.doc, p.after, p.known, env.Workspace.ProtectedFiles()), nil
}

func (editFileTool) Run(ctx context.Context, raw json.RawMessage, env *Env) (Result, error) {
	p, err := planEdit(ctx, raw, env)
	if err != nil {
		return Result{}, err
	}
	if !p.doc.Exists {
		// Created through the workspace root: inside it, never in .git.
		if err := env.Workspace.MkdirAll(filepath.Dir(p.doc.Path)); err != nil {
			return Result{}, fmt.Errorf("create parent directories of %s: %w", p.rel, err)
		}
	}
	rv, err := reviewedAfter(ctx, p.doc, p.after)
	if err != nil {
		return Result{}, fmt.Errorf("edit %s: %w", p.rel, err)
	}
	known, read := env.Reads.Lookup(p.abs)
	held := read && known.Holds(p.doc.Text, func() (fs.FileInfo, error) { return env.Workspace.Stat(p.abs) })
	edit := FileEdit{Tool: "edit_file", Before: p.doc, After: rv.after}
	if !rv.partial { // the text planned: what the replacement knows holds
		edit.Unchanged = p.known
	}
	if err := env.Docs.Apply(ctx, edit); err != nil {
		return Result{}, fmt.Errorf("edit %s: %w", p.rel, err)
	}
	p.recordView(env.Reads, rv.after, held)
	var out string
	switch {
	case p.creates():
		out = fmt.Sprintf("created %s (%d lines)", p.rel, countLines(p.after))
	case len(p.lines) == 1:
		out = fmt.Sprintf("edited %s: replaced 1 occurrence at line %d", p.rel, p.lines[0])
	default:
		out = fmt.Sprintf("edited %s: replaced %d occurrences at lines %s",
			p.rel, len(p.lines), joinInts(p.lines, maxListedMatches))
	}
	return Result{Output: rv.output("edited", p.rel, out)}, nil
}

// recordView notes in the read log the text the model knows the file
// holds after this edit: the replacement made in the text it last read,
// when it read the file and the replacement applies there; else the text
// the edit wrote. It does not hold changes made since the model read the
// file, so a later write_file keeps them (ReadLog). Of a large file the
// log has only a hash of what the model read: when that is the text the
// edit was made on, the view is the edit's result; when not, the view
// cannot be made, and a later write must read the file again.
//
// held is whether the file held what the model knew when the edit was
// made (Known.Holds, checked before it landed).
func (p editPlan) recordView(reads *ReadLog, wrote string, held bool) {
	known, ok := reads.Lookup(p.abs)
	if !ok || p.args.OldString == "" { // never read, or created whole
		reads.Record(p.abs, wrote)
		return
	}
	read, kept := known.Text()
	switch {
	case kept:
		view, _, err := replaceText(read, p.args.OldString, p.args.NewString, p.args.ReplaceAll)
		if err != nil {
			view = wrote
		}
		reads.Record(p.abs, view)
	case held:
		reads.Record(p.abs, p.after)
	default:
		reads.recordUnknown(p.abs)
	}
}

func joinInts(ns []int, limit int) string {
	parts := make([]string, 0, min(len(ns), limit)+1)
	for i, n := range ns {
		if i == limit {
			parts = append(parts, fmt.Sprintf("… (%d more)", len(ns)-limit))
			break
		}
		parts = append(parts, strconv.Itoa(n))
	}
	return strings.Join(parts, ", ")
}

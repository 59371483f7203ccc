package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/agent-lsp/agent-lsp/permission"
)

// approvalDiffBytes bounds the diff shown in an approval; a whole new large
// file is summarized by its head and tail.
const approvalDiffBytes = 24 << 10

type writeFileArgs struct {
	Path    string `json:"path"`
	Content string `json:"content"`
}

type writeFileTool struct{}

// NewWriteFile returns the write_file tool: create a file or replace its
// whole text.
func NewWriteFile() Tool { return writeFileTool{} }

func (writeFileTool) Name() string { return "write_file" }

func (writeFileTool) Description() string {
	return "Create a file, or overwrite one with the given content (missing parent directories are created). " +
		"Prefer edit_file to change part of an existing file. The content is written exactly as given. " +
		"Files inside .git cannot be written."
}

func (writeFileTool) Schema() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{` +
		`"path":{"type":"string","description":"File path, relative to the workspace root"},` +
		`"content":{"type":"string","description":"The complete new file text"}},` +
		`"required":["path","content"],"additionalProperties":false}`)
}

// writePlan is what a write_file call would do, computed without changing
// anything.
type writePlan struct {
	args writeFileArgs
	abs  string
	rel  string
	doc  Doc
	// after is the text to write: the content, merged with the changes
	// made to the file since the model last read it (rebaseWrite).
	after string
}

// merged reports whether the write keeps changes the model did not see.
func (p writePlan) merged() bool { return p.after != p.args.Content }

func planWrite(ctx context.Context, raw json.RawMessage, env *Env) (writePlan, error) {
	var p writePlan
	if err := decodeArgs(raw, &p.args); err != nil {
		return p, err
	}
	abs, err := env.Workspace.ResolveWrite(p.args.Path)
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
	p.after, err = rebaseWrite(p.rel, env, abs, p.doc, p.args.Content)
	if err == nil {
		err = CheckSize(p.rel, int64(len(p.after)), true) // size policy
	}
	return p, err
}

// rebaseWrite returns the text a write of content should leave in a file
// holding doc. The model wrote content from the text it last read; when
// the file was changed since (the user typed, a formatter ran), content is
// merged with that change (base: what the model read, ours: the file now,
// theirs: content), so the change is kept rather than overwritten with the
// model's stale copy. A change to the lines the model rewrote too is a
// conflict the model reads. A file the model never read (or a missing one)
// is replaced by content whole, as shown in the approval.
//
// The merged text is what Describe shows and Run writes, against the
// file's current text: FileEdit.Before is that text, so anything typed
// after the approval is merged again by Documents.Apply.
//
// Of a large file the log keeps only a hash of what the model read (ReadLog):
// when it was changed since, there is no base to merge with, and the write
// is refused until the model reads the file again.
func rebaseWrite(rel string, env *Env, abs string, doc Doc, content string) (string, error) {
	known, ok := env.Reads.Lookup(abs)
	if !ok || !doc.Exists || known.Holds(doc.Text, func() (fs.FileInfo, error) { return env.Workspace.Stat(abs) }) {
		return content, nil
	}
	base, kept := known.Text()
	if !kept {
		return "", fmt.Errorf("%w: %s changed since you read it; read it again and redo your write (the agent keeps too little of a file this large to merge your write with the change)",
			ErrEditConflict, rel)
	}
	merged, conflicts := Merge3(base, doc.Text, content)
	if len(conflicts) > 0 {
		return "", ConflictError(rel, "someone", conflicts)
	}
	return merged, nil
}

func (writeFileTool) Describe(ctx context.Context, raw json.RawMessage, env *Env) (permission.Action, error) {
	p, err := planWrite(ctx, raw, env)
	if err != nil {
		return permission.Action{}, err
	}
	lines := countLines(p.after)
	summary := fmt.Sprintf("write %s (new file, %d lines)", p.rel, lines)
	switch {
	case p.merged():
		summary = fmt.Sprintf("write %s (replace %d lines with %d, keeping changes made since the agent read it)",
			p.rel, countLines(p.doc.Text), lines)
	case p.doc.Exists:
		summary = fmt.Sprintf("write %s (replace %d lines with %d)", p.rel, countLines(p.doc.Text), lines)
	}
	return fileAction("write_file", summary, p.rel, p.doc, p.after, env.Workspace.ProtectedFiles()), nil
}

func (writeFileTool) Run(ctx context.Context, raw json.RawMessage, env *Env) (Result, error) {
	p, err := planWrite(ctx, raw, env)
	if err != nil {
		return Result{}, err
	}
	lines := countLines(p.after)
	if p.doc.Exists && p.doc.Text == p.after {
		env.Reads.Record(p.abs, p.args.Content)
		if p.merged() {
			return Result{Output: fmt.Sprintf("%s unchanged: your content changes nothing of what you read, and the file was changed since (now %d lines; read it again to see how)", p.rel, lines)}, nil
		}
		return Result{Output: fmt.Sprintf("%s unchanged (content identical, %d lines)", p.rel, lines)}, nil
	}
	if !p.doc.Exists {
		// Created through the workspace root: inside it, never in .git.
		if err := env.Workspace.MkdirAll(filepath.Dir(p.doc.Path)); err != nil {
			return Result{}, fmt.Errorf("create parent directories of %s: %w", p.rel, err)
		}
	}
	rv, err := reviewedAfter(ctx, p.doc, p.after)
	if err != nil {
		return Result{}, fmt.Errorf("write %s: %w", p.rel, err)
	}
	if err := env.Docs.Apply(ctx, FileEdit{Tool: "write_file", Before: p.doc, After: rv.after}); err != nil {
		return Result{}, fmt.Errorf("write %s: %w", p.rel, err)
	}
	// The model's own version is what it knows the file holds: a later
	// write based on it keeps what others changed (even where a reviewer
	// rejected hunks, which then stay rejected unless rewritten).
	env.Reads.Record(p.abs, p.args.Content)
	switch {
	case p.merged():
		return Result{Output: rv.output("wrote", p.rel, fmt.Sprintf(
			"wrote %s (%d lines), merged with changes made to it since you read it, which were kept; read it again to see them before rewriting it whole",
			p.rel, lines))}, nil
	case p.doc.Exists:
		return Result{Output: rv.output("wrote", p.rel, fmt.Sprintf("wrote %s (%d lines)", p.rel, lines))}, nil
	}
	return Result{Output: rv.output("created", p.rel, fmt.Sprintf("created %s (%d lines)", p.rel, lines))}, nil
}

// fileAction is the permission action of a write or edit: its risk comes
// from the path (and the workspace's protected files), its diff from the text before and after. It carries the
// proposal too (Action.Edit): hunks for a reviewer, and the text the edit
// was computed against, which Run applies it to (readForEdit).
func fileAction(tool, summary, rel string, doc Doc, after string, protected permission.ProtectedFiles) permission.Action {
	return fileActionKnown(tool, summary, rel, doc, after, Unchanged{}, protected)
}

// fileActionKnown is fileAction when the caller knows what before and
// after share at their ends (known): the diff, made once for the preview
// and the hunks, compares only what lies between.
func fileActionKnown(tool, summary, rel string, doc Doc, after string, known Unchanged, protected permission.ProtectedFiles) permission.Action {
	before := doc.Text
	risk, reason := writeRisk(rel, doc.Path, protected)
	edits := LineDiffKnown(before, after, known)
	a := permission.Action{
		Tool: tool, Summary: summary, Scope: tool, Risk: risk, Path: rel,
		Diff:          Truncate(unifiedDiffOf(rel, before, edits, 3), approvalDiffBytes),
		WorkspaceEdit: true, // the path was resolved inside the sandbox
	}
	a.Edit = &permission.EditProposal{File: doc.Path, Before: before, After: after, Exists: doc.Exists}
	if isBinary(before) || isBinary(after) {
		a.Diff = fmt.Sprintf("(binary content: %d bytes → %d bytes)", len(before), len(after))
	} else {
		a.Edit.Hunks = editHunksOf(before, edits)
	}
	if reason != "" {
		a.Reasons = []string{rel + ": " + reason}
	}
	return a
}

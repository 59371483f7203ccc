package tools

import (
	"context"
	"encoding/json"

	"github.com/agent-lsp/agent-lsp/permission"
)

// Tool is one capability offered to the model.
type Tool interface {
	Name() string
	Description() string
	Schema() json.RawMessage // JSON Schema of the arguments object
	// Describe says what a call with these arguments would do, for the
	// permission policy. A bad argument is an error (the call then fails
	// without asking anyone). ctx is the call's: a Describe that reads a
	// file through an editor stops when the call is cancelled.
	Describe(ctx context.Context, args json.RawMessage, env *Env) (permission.Action, error)
	// Run performs the call. An error is a failed call whose message the
	// model reads; it never aborts the agent.
	Run(ctx context.Context, args json.RawMessage, env *Env) (Result, error)
}

// Result is a tool's output for the model.
type Result struct {
	Output string
	// IsError marks a call that ran but failed (a non-zero exit, isError
	// from an MCP server); the model reads Output either way.
	IsError bool
}

// Env is what a tool call runs against.
type Env struct {
	Workspace *Workspace
	Docs      Documents
	// Notes, when set, returns extra text appended to a command's result,
	// e.g. which edited files are unsaved in the editor. May be nil.
	Notes func() string
	// Plan receives the session's plan when todo_write replaces it; nil:
	// the session keeps no plan (todo_write then fails).
	Plan PlanSink
	// ToolsFound receives what tool_search found, which the session then
	// offers; nil: nothing is remembered (the search still answers).
	ToolsFound ToolsFoundSink
	// Reads is what the model last knew each file to hold (read_file,
	// its own writes): write_file merges with changes made since. nil:
	// nothing is remembered, a write replaces the file's current text.
	Reads *ReadLog
	// Runner runs run_bash's commands; nil: a ProcessRunner without a
	// sandbox (approvals only).
	Runner CommandRunner
	// Web is the session's fetched pages (web_fetch); nil: none kept.
	Web *WebCache
}

// Doc is one file's current text.
type Doc struct {
	Path   string // absolute, cleaned path inside the workspace
	Text   string
	Exists bool
	// Version is the editor's version of the open buffer, nil when the text
	// came from disk.
	Version *int32
}

// FileEdit replaces a file's whole text. Where it lands decides how: an
// editor computes minimal text edits between Before.Text and After.
type FileEdit struct {
	Tool   string // the tool making the edit, for labels
	Before Doc    // the text the edit was computed against
	After  string // the new text
	// Unchanged, when set, is what Before.Text and After are known to
	// share at their ends (diff_known.go): a diff of the two need not
	// compare those bytes.
	Unchanged Unchanged
	// Delete removes the file instead (After is ignored). Deletions are
	// made by rewinding a checkpoint, through BatchApplier when the
	// Documents has it; DiskDocuments.Apply supports them too.
	Delete bool
}

// Documents is where file text lives and how edits land.
type Documents interface {
	// Read returns the file's text: the editor's buffer when the file is
	// open there, the disk otherwise. A missing file is Exists=false, no error.
	Read(ctx context.Context, path string) (Doc, error)
	// Apply makes the edit land, or says why it did not.
	Apply(ctx context.Context, edit FileEdit) error
}

// BatchApplier is implemented by Documents that can make several edits
// land as one: one workspace/applyEdit for the editor (so one undo brings
// them all back), for the disk every file checked before any is written.
type BatchApplier interface {
	// ApplyAll makes every edit land, or says why none did (for the disk:
	// why the ones not yet written were not).
	ApplyAll(ctx context.Context, edits []FileEdit) error
}

// LineReader is implemented by Documents that can hand out a window of a
// file's lines without loading, or copying, the whole file: the disk
// streams up to the window's end, an editor slices the buffer it holds.
// read_file uses it for offset/limit; without it the file is Read whole
// (ReadWindow). A window is not subject to the size policy's limit.
type LineReader interface {
	ReadLines(ctx context.Context, path string, req LineRequest) (LineWindow, error)
}

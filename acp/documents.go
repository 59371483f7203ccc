package acp

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"sync"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agent-lsp/agent-lsp/tools"
)

// clientDocs is tools.Documents over the client's buffers: reads through
// fs/read_text_file (the unsaved text when the file is open), writes
// through fs/write_text_file. A file the client cannot read and the disk
// does not hold is a missing file. Deletions (a checkpoint rewind) go to
// the disk: ACP has no method for them.
type clientDocs struct {
	s    *session
	ws   *tools.Workspace
	disk *tools.DiskDocuments
	// clientRead, clientWrite: the client declared fs.readTextFile,
	// fs.writeTextFile; without one, that side is the disk.
	clientRead, clientWrite bool
	// commands are frozen while the client writes an edit by path
	// (tools.WriteByPath); nil when no runner of ours runs commands.
	commands tools.CommandFreezer
	mu       sync.Mutex // one edit at a time: read, rebase, write
}

var _ tools.Documents = (*clientDocs)(nil)

func newClientDocs(ws *tools.Workspace, s *session) *clientDocs {
	return &clientDocs{s: s, ws: ws, disk: &tools.DiskDocuments{Workspace: ws}}
}

// Read implements tools.Documents.
func (d *clientDocs) Read(ctx context.Context, path string) (tools.Doc, error) {
	if !d.clientRead {
		return d.disk.Read(ctx, path)
	}
	if !d.ws.Contains(path) {
		return tools.Doc{}, fmt.Errorf("%s: outside the workspace", path)
	}
	// A buffer's text comes in one message: a file whose disk copy is over
	// the limit is not asked for (its buffer most likely is too, and an
	// answer over the SDK's cap would end the connection).
	if fi, err := d.ws.Stat(path); err == nil {
		if err := d.checkSize(path, fi.Size(), false); err != nil {
			return tools.Doc{}, err
		}
	}
	resp, err := d.s.peer.ReadTextFile(ctx, sdk.ReadTextFileRequest{SessionId: d.s.id, Path: path})
	if err == nil {
		// The size policy holds for the client's unsaved buffers too.
		if err := d.checkSize(path, int64(len(resp.Content)), false); err != nil {
			return tools.Doc{}, err
		}
		return tools.Doc{Path: path, Text: resp.Content, Exists: true}, nil
	}
	if ctx.Err() != nil {
		return tools.Doc{}, ctx.Err()
	}
	// The client has no such buffer: a missing file, or one it refuses.
	if _, serr := d.ws.Stat(path); errors.Is(serr, fs.ErrNotExist) {
		return tools.Doc{Path: path}, nil
	}
	return tools.Doc{}, fmt.Errorf("fs/read_text_file %s: %w", path, err)
}

// clientTextBytes is the largest text sent to or asked of the client in
// one fs/* message, below tools.MaxFileBytes: the SDK (v0.13.0,
// Connection.receive) reads a message of at most 10 MiB and closes the
// connection on a longer one; 8 MiB leaves room for JSON escaping.
const clientTextBytes = 8 << 20

// fitsOneMessage reports whether texts sent together (a diff's old and new
// text) stay within what one message to the client should carry; a diff
// that does not is shown as the unified diff of the change instead, or
// not at all.
func fitsOneMessage(texts ...string) bool {
	n := 0
	for _, t := range texts {
		n += len(t)
	}
	return n <= clientTextBytes
}

// checkSize is the size policy for texts through the client: the tools'
// limit, lowered to what one message carries.
func (d *clientDocs) checkSize(path string, size int64, result bool) error {
	if err := tools.CheckSize(d.ws.Rel(path), size, result); err != nil {
		return err
	}
	if size > clientTextBytes {
		return &tools.TooLargeError{Path: d.ws.Rel(path), Size: size, Result: result, Limit: clientTextBytes,
			Why: "through the ACP client: a buffer's text travels in one message"}
	}
	return nil
}

// Apply implements tools.Documents: the edit is rebased on what the
// client's buffer holds now (a three-way merge when the user typed since
// the agent read it), then written with fs/write_text_file.
func (d *clientDocs) Apply(ctx context.Context, edit tools.FileEdit) error {
	if edit.Delete || !d.clientWrite {
		return d.disk.Apply(ctx, edit)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	path := edit.Before.Path
	current, err := d.Read(ctx, path)
	if err != nil {
		return err
	}
	text, err := tools.Rebase(d.ws.Rel(path), edit, current)
	if err != nil {
		return err
	}
	if current.Exists && text == current.Text {
		return nil
	}
	if err := d.checkSize(path, int64(len(text)), true); err != nil {
		return err
	}
	// The client writes by path: the path is checked, and the commands
	// frozen, until it answered.
	return tools.WriteByPath(ctx, d.commands, d.ws, []string{path}, func() error {
		_, err := d.s.peer.WriteTextFile(ctx, sdk.WriteTextFileRequest{SessionId: d.s.id, Path: path, Content: text})
		if err != nil {
			return fmt.Errorf("fs/write_text_file %s: %w", path, err)
		}
		return nil
	})
}

// diffRecorder wraps a session's Documents and remembers, per tool call,
// the edits that landed, so the call's tool_call_update can show them as
// diff blocks whoever approved them (the client, a grant, auto-edit mode).
type diffRecorder struct {
	tools.Documents
	mu    sync.Mutex
	diffs map[string][]sdk.ToolCallContent
}

func newDiffRecorder(d tools.Documents) *diffRecorder {
	return &diffRecorder{Documents: d, diffs: map[string][]sdk.ToolCallContent{}}
}

// ReadLines implements tools.LineReader for the Documents it wraps (an
// embedded interface would hide it).
func (r *diffRecorder) ReadLines(ctx context.Context, path string, req tools.LineRequest) (tools.LineWindow, error) {
	return tools.ReadWindow(ctx, r.Documents, path, req)
}

// Apply implements tools.Documents.
func (r *diffRecorder) Apply(ctx context.Context, edit tools.FileEdit) error {
	if err := r.Documents.Apply(ctx, edit); err != nil {
		return err
	}
	ap, ok := tools.ApprovalFrom(ctx)
	if !ok || ap.Action.CallID == "" {
		return nil
	}
	if !fitsOneMessage(edit.Before.Text, edit.After) {
		return nil // the approval showed the unified diff; this would end an SDK client's connection
	}
	c := sdk.ToolCallContent{Diff: &sdk.ToolCallContentDiff{Type: "diff", Path: edit.Before.Path, NewText: edit.After}}
	if edit.Before.Exists {
		old := edit.Before.Text
		c.Diff.OldText = &old
	}
	if edit.Delete {
		c.Diff.NewText = ""
	}
	r.mu.Lock()
	r.diffs[ap.Action.CallID] = append(r.diffs[ap.Action.CallID], c)
	r.mu.Unlock()
	return nil
}

// take returns and forgets the diffs of one call.
func (r *diffRecorder) take(callID string) []sdk.ToolCallContent {
	r.mu.Lock()
	defer r.mu.Unlock()
	d := r.diffs[callID]
	delete(r.diffs, callID)
	return d
}

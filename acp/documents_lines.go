package acp

import (
	"context"
	"errors"
	"fmt"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agent-lsp/agent-lsp/tools"
)

var _ tools.LineReader = (*clientDocs)(nil)

// ReadLines implements tools.LineReader: the disk's window (streamed) when
// the client does not read files; else a window of the client's whole
// text, or, for a buffer over the size limit, the window asked of the
// client with fs/read_text_file's line and limit (one line more than
// wanted, to know whether lines follow). A client that ignores line and
// limit sends the whole buffer again: the size error stands then.
func (d *clientDocs) ReadLines(ctx context.Context, path string, req tools.LineRequest) (tools.LineWindow, error) {
	if !d.clientRead {
		return d.disk.ReadLines(ctx, path, req)
	}
	doc, err := d.Read(ctx, path)
	var tooLarge *tools.TooLargeError
	if errors.As(err, &tooLarge) {
		return d.clientWindow(ctx, path, req, tooLarge)
	}
	if err != nil || !doc.Exists {
		return tools.LineWindow{Path: doc.Path}, err
	}
	w := tools.WindowOf(doc.Text, req)
	w.Path = doc.Path
	return w, nil
}

// clientWindow reads lines req.Offset.. of a buffer too large to read
// whole, through the client. Its total is known only when the client
// returned fewer lines than asked for.
func (d *clientDocs) clientWindow(ctx context.Context, path string, req tools.LineRequest, tooLarge *tools.TooLargeError) (tools.LineWindow, error) {
	line, limit := req.Offset, req.Limit+1
	resp, err := d.s.peer.ReadTextFile(ctx, sdk.ReadTextFileRequest{SessionId: d.s.id, Path: path, Line: &line, Limit: &limit})
	if err != nil {
		return tools.LineWindow{}, fmt.Errorf("fs/read_text_file %s, lines %d..%d: %w", path, line, line+limit-1, err)
	}
	if len(resp.Content) > clientTextBytes {
		return tools.LineWindow{}, tooLarge // the client sent the whole buffer
	}
	w := tools.WindowOf(resp.Content, tools.LineRequest{Offset: 1, Limit: req.Limit, MaxLineBytes: req.MaxLineBytes, MaxBytes: req.MaxBytes})
	switch {
	case w.Total > len(w.Lines) || len(w.Lines) == 0:
		w.Total = -1 // more lines follow, or an empty window: how many lines there are is unknown
	default:
		w.Total += req.Offset - 1
	}
	w.Path, w.Size = path, tooLarge.Size
	w.Whole, w.HasWhole = "", false
	return w, nil
}

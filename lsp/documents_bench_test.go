package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/agent-lsp/agent-lsp/lsp/lsptest"
	"github.com/agent-lsp/agent-lsp/tools"
)

// benchSource is a source-like text of about size bytes with the line
// "\tmarker = 0" in its middle, the one place the benchmark edit changes
// (tools' BenchmarkEditFile uses the same shape).
func benchSource(size int) string {
	var b strings.Builder
	b.Grow(size + 128)
	marked := false
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "\tvalue%07d := compute(%d, %q) // line %d\n", i, i*7, strings.Repeat("x", i%30), i)
		if !marked && b.Len() >= size/2 {
			b.WriteString("\tmarker = 0\n")
			marked = true
		}
	}
	return b.String()
}

// benchPipe joins the editor's two pipe ends into one connection.
type benchPipe struct {
	io.Reader
	io.Writer
	closers []io.Closer
}

func (p benchPipe) Close() error {
	for _, c := range p.closers {
		_ = c.Close()
	}
	return nil
}

// benchmarkEditorEditFile measures one edit_file call through the daemon's
// editor documents: the file open in the in-process editor (lsptest), the
// edit sent as workspace/applyEdit, applied by the editor and confirmed by
// its didChange. Tool calls run through the registry as the agent makes
// them (Describe with its diff and hunks, then Run), without a model.
func benchmarkEditorEditFile(b *testing.B, size int) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	root, err := filepath.EvalSymlinks(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	text := benchSource(size)
	path := filepath.Join(root, "big.go")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		b.Fatal(err)
	}

	s, ed, stop := serveOnPipe(ctx, b)
	defer stop()
	caps := lsptest.Capabilities{ApplyEdit: true, DocumentChanges: true, ResourceOperations: []string{"create", "rename", "delete"}}
	if _, err := ed.Initialize(ctx, root, caps, nil); err != nil {
		b.Fatal(err)
	}
	if err := ed.Open(ctx, path, text); err != nil {
		b.Fatal(err)
	}
	var sessions json.RawMessage // answered after the didOpen before it
	if err := ed.Call(ctx, "agent/sessions", map[string]any{}, &sessions); err != nil {
		b.Fatal(err)
	}
	docs := s.documents()
	env := &tools.Env{Workspace: docs.ws, Docs: docs, Reads: tools.NewReadLog()}
	env.Reads.Record(path, text)
	text = ""
	reg := tools.NewRegistry()
	if err := reg.Add(tools.NewEditFile()); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		from, to := "marker = 0", "marker = 1"
		if i%2 == 1 {
			from, to = to, from
		}
		args, err := json.Marshal(map[string]string{"path": "big.go", "old_string": from, "new_string": to})
		if err != nil {
			b.Fatal(err)
		}
		out := reg.Execute(ctx, env, []tools.Call{{ID: "c", Name: "edit_file", Args: args}}, tools.ExecOptions{})
		if out[0].Status != tools.StatusCompleted {
			b.Fatalf("edit %d: %s: %s", i, out[0].Status, out[0].Output)
		}
	}
	b.StopTimer()
	if buf, _ := ed.Buffer(path); !strings.Contains(buf.Text, "marker = "+fmt.Sprint(b.N%2)+"\n") {
		b.Fatalf("the editor's buffer does not have the last edit")
	}
}

func BenchmarkEditorEditFile1MB(b *testing.B)  { benchmarkEditorEditFile(b, 1<<20) }
func BenchmarkEditorEditFile5MB(b *testing.B)  { benchmarkEditorEditFile(b, 5<<20) }
func BenchmarkEditorEditFile20MB(b *testing.B) { benchmarkEditorEditFile(b, 20<<20) }

// BenchmarkApplyChange20MB measures one incremental didChange (a
// one-character range in the middle) applied to a 20 MB buffer: what the
// daemon does when an editor confirms an edit or the user types.
func BenchmarkApplyChange20MB(b *testing.B) {
	text := benchSource(20 << 20)
	line := uint32(strings.Count(text[:strings.Index(text, "marker = 0")], "\n"))
	r := &protocol.Range{Start: protocol.Position{Line: line, Character: 10}, End: protocol.Position{Line: line, Character: 11}}
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if got := applyChanges(text, []contentChange{{Range: r, Text: "1"}}); len(got) != len(text) {
			b.Fatal("wrong length")
		}
	}
}

// serveOnPipe serves a server in this process to an in-process editor
// over a pipe (no process between them: what is measured or checked is
// the server's own work); stop closes the editor and waits for the
// connection to end.
func serveOnPipe(ctx context.Context, tb testing.TB) (*server, *lsptest.Editor, func()) {
	srvIn, toSrv := io.Pipe()
	fromSrv, srvOut := io.Pipe()
	conn := jsonrpc2.NewConn(newStream(srvIn, srvOut, zap.NewNop()))
	s := newServer(ctx, conn, Options{Logger: zap.NewNop(), StateDir: tb.TempDir()})
	conn.Go(ctx, s.handle)
	ed := lsptest.Connect(ctx, benchPipe{Reader: fromSrv, Writer: toSrv, closers: []io.Closer{toSrv, fromSrv}}, lsptest.Handlers{})
	return s, ed, func() {
		ed.Close()
		srvOut.Close()
		<-conn.Done()
	}
}

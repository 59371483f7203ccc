package tools

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"unsafe"
)

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// numberedText is n lines "line 1\n"….
func numberedText(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	return b.String()
}

// Reading 5 lines from line 1000 of a 20 MB text reads the lines up to the
// window's end and at most one buffer more, not the text.
func TestStreamLinesReadsOnlyTheWindow(t *testing.T) {
	var b strings.Builder
	for i := 1; b.Len() < 20<<20; i++ {
		fmt.Fprintf(&b, "line %d of a large file\n", i)
	}
	text := b.String()
	cr := &countingReader{r: strings.NewReader(text)}
	w, err := streamLines(context.Background(), cr, LineRequest{Offset: 1000, Limit: 5, MaxLineBytes: readMaxLineBytes})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range w.Lines {
		got = append(got, l.String())
	}
	want := []string{"line 1000 of a large file", "line 1001 of a large file", "line 1002 of a large file",
		"line 1003 of a large file", "line 1004 of a large file"}
	if !reflect.DeepEqual(got, want) || w.Total != -1 || w.Binary {
		t.Fatalf("window = %q, total %d, binary %v; want %q and more lines following", got, w.Total, w.Binary, want)
	}
	prefix := int64(strings.Index(text, "line 1005 "))
	if cr.n > prefix+streamBufBytes {
		t.Fatalf("read %d bytes of %d; the window ends at byte %d, so at most %d were needed",
			cr.n, len(text), prefix, prefix+streamBufBytes)
	}
}

// The streamed window is the one sliced from the whole text, line for
// line, whatever the line breaks, lengths and offsets.
func TestStreamLinesMatchesWindowOf(t *testing.T) {
	longLine := strings.Repeat("é", 1500) // 3000 bytes, cut at 2000
	texts := map[string]string{
		"lf":               numberedText(50),
		"crlf":             strings.ReplaceAll(numberedText(50), "\n", "\r\n"),
		"no final newline": numberedText(49) + "line 50",
		"crlf no final":    "a\r\nb\r\nc\r",
		"empty lines":      "\n\n\nx\n\n",
		"long lines":       longLine + "\nshort\n" + longLine + "\r\n" + longLine,
		"line at the cut":  strings.Repeat("x", readMaxLineBytes) + "\n" + strings.Repeat("y", readMaxLineBytes+1) + "\n",
		// Longer than the reader's buffer: read in several slices.
		"huge line":      "first\n" + strings.Repeat("z", 3*streamBufBytes+7) + "\r\nlast\n",
		"huge line skip": strings.Repeat("q", 2*streamBufBytes) + "\nsecond\nthird",
		"empty":          "",
		"one newline":    "\n",
	}
	reqs := []LineRequest{
		{Offset: 1, Limit: 2000}, {Offset: 1, Limit: 1}, {Offset: 2, Limit: 2}, {Offset: 3, Limit: 5},
		{Offset: 49, Limit: 5}, {Offset: 50, Limit: 1}, {Offset: 51, Limit: 1}, {Offset: 500, Limit: 3},
		{Offset: 1, Limit: 100, MaxBytes: 20}, {Offset: 2, Limit: 100, MaxBytes: 2500},
	}
	for name, text := range texts {
		for _, req := range reqs {
			req.MaxLineBytes = readMaxLineBytes
			t.Run(fmt.Sprintf("%s/%d+%d/max%d", name, req.Offset, req.Limit, req.MaxBytes), func(t *testing.T) {
				want := WindowOf(text, req)
				got, err := streamLines(context.Background(), strings.NewReader(text), req)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(got.Lines, want.Lines) {
					t.Fatalf("streamed lines %q, sliced %q", got.Lines, want.Lines)
				}
				more := want.Total > req.Offset+len(want.Lines)-1
				switch {
				case got.Total >= 0 && got.Total != want.Total:
					t.Fatalf("streamed total %d, the text has %d lines", got.Total, want.Total)
				case got.Total < 0 && !more:
					t.Fatalf("streaming says more lines follow line %d; the text has %d", req.Offset+len(got.Lines)-1, want.Total)
				case len(got.Lines) == 0 && got.Total < 0:
					t.Fatal("an empty window must know the total (offset past the end)")
				}
			})
		}
	}
}

func TestStreamLinesDetectsBinaryOnItsHead(t *testing.T) {
	head := strings.Repeat("text\n", 100)
	w, err := streamLines(context.Background(), strings.NewReader(head+"\x00"+strings.Repeat("x\n", 1<<20)), LineRequest{Offset: 2, Limit: 1})
	if err != nil || !w.Binary || len(w.Lines) != 0 {
		t.Fatalf("NUL in the first 8 KiB: binary %v, %d lines, %v; want binary", w.Binary, len(w.Lines), err)
	}
	late := strings.Repeat("text\n", 2000) + "\x00\n" // the NUL past the sniffed 8 KiB
	w, err = streamLines(context.Background(), strings.NewReader(late), LineRequest{Offset: 2, Limit: 1})
	if err != nil || w.Binary || len(w.Lines) != 1 || w.Lines[0].Text != "text" {
		t.Fatalf("NUL after 8 KiB: %+v, %v; want line 2 as text", w, err)
	}
}

// A cancelled read stops skipping instead of reading a huge file through.
func TestStreamLinesStopsWhenCancelled(t *testing.T) {
	c, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := streamLines(c, strings.NewReader(numberedText(3*ctxCheckLines)), LineRequest{Offset: 2 * ctxCheckLines, Limit: 1})
	if err != context.Canceled {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

// read_file on a file larger than wholeWindowBytes goes through the stream:
// CRLF, a cut line, a last line without newline, paging note, offset past
// the end; and a file that fits is read whole, so the ReadLog has it.
func TestReadFileStreamsLargeFiles(t *testing.T) {
	e := newFileToolEnv(t)
	e.env.Reads = NewReadLog()
	filler := strings.Repeat("f", 99) + "\r\n"
	n := wholeWindowBytes/len(filler) + 10
	text := "first\r\n" + strings.Repeat("é", 1500) + "\r\n" + strings.Repeat(filler, n) + "last"
	big := e.write(t, "big.txt", text)
	lines := n + 3
	tests := []struct {
		name          string
		offset, limit int
		want          string
		wantErr       string
	}{
		{name: "head", offset: 1, limit: 2, want: "     1\tfirst\n     2\t" + strings.Repeat("é", 1000) +
			" … [line cut: 1000 more bytes]\n… more lines follow (the file is 1.0 MiB); call read_file with offset 3 to read further\n"},
		{name: "tail", offset: lines - 1, limit: 5, want: fmt.Sprintf("%6d\t%s\n%6d\tlast\n", lines-1, filler[:99], lines)},
		{name: "before the tail", offset: lines - 2, limit: 1,
			want: fmt.Sprintf("%6d\t%s\n… 2 more lines; call read_file with offset %d to read further\n", lines-2, filler[:99], lines-1)},
		{name: "past the end", offset: lines + 1, limit: 1, wantErr: fmt.Sprintf("offset %d is past the end of big.txt (%d lines)", lines+1, lines)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := runTool(t, NewReadFile(), e.env, map[string]any{"path": "big.txt", "offset": tt.offset, "limit": tt.limit})
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("got %q, %v\nwant %q", got, err, tt.want)
			}
		})
	}
	if k, ok := e.env.Reads.Lookup(big); !ok || !k.window {
		t.Errorf("a streamed window is recorded as a window (size and time), got %+v, %v", k, ok)
	} else if _, kept := k.Text(); kept {
		t.Error("a streamed window was recorded as the file's whole text")
	}
	// A small file's window records the whole text: a whole-file write
	// made from it after someone changed the file keeps their change.
	e.write(t, "small.txt", numberedText(100))
	if _, err := runTool(t, NewReadFile(), e.env, map[string]any{"path": "small.txt", "offset": 10, "limit": 2}); err != nil {
		t.Fatal(err)
	}
	e.write(t, "small.txt", strings.Replace(numberedText(100), "line 1\n", "line one, changed since\n", 1))
	content := strings.Replace(numberedText(100), "line 100\n", "line 100, by the model\n", 1)
	if _, err := runTool(t, NewWriteFile(), e.env, map[string]any{"path": "small.txt", "content": content}); err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(content, "line 1\n", "line one, changed since\n", 1)
	if got := e.read(t, "small.txt"); got != want {
		t.Errorf("write after a window read of a small file: the change made since was not kept:\n%s", got[:40])
	}
}

// ReadLines keeps the workspace's protections: a FIFO is refused (not
// blocked on), a symlink out of the workspace is not followed, a missing
// file is Exists=false.
func TestDiskReadLinesProtections(t *testing.T) {
	e := newFileToolEnv(t)
	docs := e.env.Docs.(*DiskDocuments)
	req := LineRequest{Offset: 1, Limit: 1}
	outside := filepath.Join(t.TempDir(), "secret.txt")
	if err := os.WriteFile(outside, []byte("secret\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(e.root, "link.txt")); err != nil {
		t.Fatal(err)
	}
	if w, err := docs.ReadLines(context.Background(), filepath.Join(e.root, "link.txt"), req); err == nil {
		t.Fatalf("read through a symlink out of the workspace: %+v", w)
	}
	if err := syscall.Mkfifo(filepath.Join(e.root, "pipe"), 0o644); err == nil {
		if _, err := docs.ReadLines(context.Background(), filepath.Join(e.root, "pipe"), req); err == nil ||
			!strings.Contains(err.Error(), "not a regular file") {
			t.Fatalf("FIFO: %v, want refused as not a regular file", err)
		}
	}
	w, err := docs.ReadLines(context.Background(), filepath.Join(e.root, "missing.txt"), req)
	if err != nil || w.Exists {
		t.Fatalf("missing file: %+v, %v", w, err)
	}
}

// An open buffer's window is sliced from the text: its lines point into
// the text's memory, and slicing allocates only the window's line list.
func TestWindowOfSlicesWithoutCopying(t *testing.T) {
	text := numberedText(1 << 20) // ~8 MB
	w := WindowOf(text, LineRequest{Offset: 500_000, Limit: 5, MaxLineBytes: readMaxLineBytes})
	if len(w.Lines) != 5 || w.Lines[0].Text != "line 500000" || w.Total != 1<<20 || !w.HasWhole {
		t.Fatalf("window %+v", w.Lines)
	}
	start := uintptr(unsafe.Pointer(unsafe.StringData(text)))
	for _, l := range w.Lines {
		p := uintptr(unsafe.Pointer(unsafe.StringData(l.Text)))
		if p < start || p >= start+uintptr(len(text)) {
			t.Fatalf("line %q is a copy, not a slice of the text", l.Text)
		}
	}
	allocs := testing.AllocsPerRun(5, func() {
		WindowOf(text, LineRequest{Offset: 500_000, Limit: 5, MaxLineBytes: readMaxLineBytes})
	})
	if allocs > 4 {
		t.Fatalf("%v allocations per window, want the line list's few", allocs)
	}
}

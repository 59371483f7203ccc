package tools

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// referenceLines is what segmentReader must yield for text: its lines
// without newlines, each cut to maxLine bytes.
func referenceLines(text string, maxLine int) []string {
	lines := strings.Split(text, "\n")
	if strings.HasSuffix(text, "\n") || text == "" {
		lines = lines[:len(lines)-1]
	}
	for i, l := range lines {
		lines[i] = l[:min(len(l), maxLine)]
	}
	return lines
}

// segmentLines collects the lines segmentReader yields, checking their
// numbers run 1, 2, 3...
func segmentLines(t *testing.T, sr *segmentReader) []string {
	t.Helper()
	var got []string
	no := 1
	for {
		seg, long := sr.next()
		if seg == nil {
			break
		}
		no = eachLine(seg, long, no, func(n int, line []byte) bool {
			if n != len(got)+1 {
				t.Fatalf("line numbered %d, want %d", n, len(got)+1)
			}
			got = append(got, string(line))
			return true
		})
	}
	if sr.err != nil {
		t.Fatal(sr.err)
	}
	return got
}

// randomText makes lines of lengths from very short to longer than the
// buffers under test, with and without a final newline.
func randomText(r *rand.Rand, lines, longest int) string {
	var b strings.Builder
	for i := range lines {
		n := r.IntN(8)
		if r.IntN(5) == 0 {
			n = r.IntN(longest)
		}
		for j := range n {
			b.WriteByte("abcdefgh "[(i+j)%9])
		}
		if i < lines-1 || r.IntN(2) == 0 {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

func TestSegmentReaderYieldsEveryLineOnceAcrossChunks(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := range 300 {
		text := randomText(r, 1+r.IntN(40), 100)
		bufSize := 1 + r.IntN(16)
		maxLine := bufSize + r.IntN(40)
		// iotest-like reader: short reads of random size, as pipes and
		// network file systems give.
		sr := newSegmentReader(context.Background(), &choppyReader{data: []byte(text), r: r}, make([]byte, bufSize))
		sr.maxLine = maxLine
		got := segmentLines(t, &sr)
		if want := referenceLines(text, maxLine); !slices.Equal(got, want) {
			t.Fatalf("trial %d (buffer %d, max line %d), text %q:\ngot  %q\nwant %q", trial, bufSize, maxLine, text, got, want)
		}
	}
}

// choppyReader returns data in reads of 1 to 7 bytes.
type choppyReader struct {
	data []byte
	r    *rand.Rand
}

func (c *choppyReader) Read(p []byte) (int, error) {
	if len(c.data) == 0 {
		return 0, io.EOF
	}
	n := copy(p[:min(len(p), 1+c.r.IntN(7))], c.data)
	c.data = c.data[n:]
	return n, nil
}

// TestGrepStreamsLargeFiles: a file far larger than the read buffer, with
// lines straddling every chunk boundary and some longer than a chunk, is
// grepped with the same counts, line numbers and context as a line-by-line
// reference.
func TestGrepStreamsLargeFiles(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var b strings.Builder
	var want []int
	for no := 1; b.Len() < 3*grepStreamBytes; no++ {
		n := r.IntN(120)
		if r.IntN(400) == 0 {
			n = grepChunkBytes + r.IntN(grepStreamBytes) // longer than a chunk, some than the buffer
		}
		line := strings.Repeat("z", n)
		if r.IntN(20) == 0 {
			at := r.IntN(n + 1)
			line = line[:at] + "needle" + strconv.Itoa(no) + line[at:]
			want = append(want, no)
		}
		b.WriteString(line + "\n")
	}
	text := b.String()
	t.Logf("%d bytes, %d lines, %d matching", len(text), strings.Count(text, "\n"), len(want))
	env, _ := newSearchEnv(t, map[string]string{"big.txt": text})

	st, err := Search(context.Background(), env.Workspace.Roots()[0], SearchOptions{Pattern: `needle\d+`})
	if err != nil || st.MatchedLines != len(want) || st.FilesSearched != 1 {
		t.Fatalf("Search: %+v, %v; want %d matching lines", st, err, len(want))
	}
	out, err := callTool(t, context.Background(), NewGrep(), env, map[string]any{"pattern": `needle\d+`, "context": 1})
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(text, "\n")
	matchLine := regexp.MustCompile(`^big\.txt:(\d+): `)
	contextLine := regexp.MustCompile(`^big\.txt-(\d+)- `)
	var got []int
	for _, l := range strings.Split(out.Output, "\n") {
		if m := matchLine.FindStringSubmatch(l); m != nil {
			no, _ := strconv.Atoi(m[1])
			got = append(got, no)
			if !strings.Contains(l, "needle"+m[1]) {
				t.Errorf("line %d shown as %.80q, which is not that line", no, l)
			}
			continue
		}
		if m := contextLine.FindStringSubmatch(l); m != nil {
			no, _ := strconv.Atoi(m[1])
			if strings.Contains(lines[no-1], "needle") {
				t.Errorf("context line %d is a match", no)
			}
		}
	}
	if max := min(len(want), grepMaxMatches); !slices.Equal(got, want[:max]) {
		t.Errorf("matches at lines %v\nwant %v", got, want[:max])
	}
}

// TestGrepVeryLongLine: a line over maxScanLineBytes is matched on its
// first maxScanLineBytes and the lines after it keep their numbers.
func TestGrepVeryLongLine(t *testing.T) {
	long := strings.Repeat("x", maxScanLineBytes+1<<20)
	env, _ := newSearchEnv(t, map[string]string{
		"long.txt":    "first\nneedle " + long + " needle-past-the-cap\nafter needle\n",
		"hidden.txt":  long + " needle\nlast\n",
		"nonewln.txt": "needle " + long,
	})
	out, err := callTool(t, context.Background(), NewGrep(), env, map[string]any{"pattern": "needle"})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"long.txt:2: needle xxx", "long.txt:3: after needle", "nonewln.txt:1: needle xxx"} {
		if !strings.Contains(out.Output, want) {
			t.Errorf("output lacks %q:\n%.2000s", want, out.Output)
		}
	}
	if strings.Contains(out.Output, "hidden.txt") {
		t.Errorf("a match past the line cap was reported:\n%.2000s", out.Output)
	}
	if len(out.Output) > 4*grepMaxLineBytes {
		t.Errorf("long lines not cut for display: %d bytes", len(out.Output))
	}
}

// TestGrepDecidesBinaryOnFirst8KiB: a NUL in the first 8 KiB skips the
// file, one after it does not (the decision is made before reading on).
func TestGrepDecidesBinaryOnFirst8KiB(t *testing.T) {
	pad := strings.Repeat("a", grepSniffBytes-1)
	env, _ := newSearchEnv(t, map[string]string{
		"early.bin": pad + "\x00\nneedle\n",
		"late.txt":  pad + "a\x00\nneedle\n",
	})
	st, err := Search(context.Background(), env.Workspace.Roots()[0], SearchOptions{Pattern: "needle"})
	if err != nil {
		t.Fatal(err)
	}
	if st.BinarySkipped != 1 || st.FilesSearched != 1 || st.MatchedLines != 1 {
		t.Errorf("stats %+v, want early.bin skipped as binary and late.txt searched", st)
	}
}

func TestSegmentReaderReportsReadErrors(t *testing.T) {
	sr := newSegmentReader(context.Background(), &failingReader{}, make([]byte, 8))
	for seg, _ := sr.next(); seg != nil; seg, _ = sr.next() {
	}
	if sr.err == nil || !strings.Contains(sr.err.Error(), "disk on fire") {
		t.Errorf("err = %v", sr.err)
	}
}

type failingReader struct{ calls int }

func (f *failingReader) Read(p []byte) (int, error) {
	f.calls++
	if f.calls == 1 {
		return copy(p, "abc\nde"), nil
	}
	return 0, fmt.Errorf("disk on fire")
}

// writeSparse makes a file of size bytes that is a hole but for text at
// offsets (offset → text).
func writeSparse(t testing.TB, path string, size int64, texts map[int64]string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.Truncate(size); err != nil {
		t.Fatal(err)
	}
	for off, text := range texts {
		if _, err := f.WriteAt([]byte(text), off); err != nil {
			t.Fatal(err)
		}
	}
}

// TestGrepContextAfterRestart: the output of a large file is re-read from
// a segment start shortly before the first match, not from the file's
// start; the context lines before it keep their numbers and text.
func TestGrepContextAfterRestart(t *testing.T) {
	var b strings.Builder
	const needleAt = 60000
	for no := 1; no <= needleAt+100; no++ {
		switch {
		case no == needleAt:
			fmt.Fprintf(&b, "line %d needle\n", no)
		case no%7919 == 0:
			fmt.Fprintf(&b, "line %d %s\n", no, strings.Repeat("w", grepChunkBytes)) // a line longer than a chunk
		default:
			fmt.Fprintf(&b, "line %d\n", no)
		}
	}
	env, _ := newSearchEnv(t, map[string]string{"tail.txt": b.String()})
	out, err := callTool(t, context.Background(), NewGrep(), env, map[string]any{"pattern": "needle", "context": 3})
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for no := needleAt - 3; no <= needleAt+3; no++ {
		sep, text := "-", fmt.Sprintf("line %d", no)
		if no == needleAt {
			sep, text = ":", text+" needle"
		}
		want = append(want, fmt.Sprintf("tail.txt%s%d%s %s", sep, no, sep, text))
	}
	if got := out.Output; got != strings.Join(want, "\n") {
		t.Errorf("output:\n%s\nwant:\n%s", got, strings.Join(want, "\n"))
	}
}

func TestSegmentReaderStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	sr := newSegmentReader(ctx, strings.NewReader("a\nb\n"), make([]byte, 8))
	if seg, _ := sr.next(); seg != nil || sr.err != context.Canceled {
		t.Errorf("segment %q, err %v; want none and context.Canceled", seg, sr.err)
	}
}

func TestRestartPoint(t *testing.T) {
	starts := []segmentStart{{900, 95}, {1000, 100}, {500, 60}, {700, 80}} // a wrapped ring: not in order
	for _, tt := range []struct {
		line int
		want segmentStart
	}{
		{100, segmentStart{1000, 100}},
		{99, segmentStart{900, 95}},
		{80, segmentStart{700, 80}},
		{10, segmentStart{500, 60}}, // none early enough: the earliest
	} {
		if got := restartPoint(starts, tt.line); got != tt.want {
			t.Errorf("restartPoint(%d) = %v, want %v", tt.line, got, tt.want)
		}
	}
}

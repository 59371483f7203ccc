package contentstore

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// A stored text is one file named by its hash: a header line, then the
// text whole, or the middle of a delta:
//
//	cs1 full\n<text>
//	cs1 delta <base hash> <prefix> <suffix> <depth> <chain> <root>\n<middle>
//
// A delta's text is base[:prefix] + middle + base[len(base)-suffix:];
// depth counts the deltas down to a whole text, chain adds up their
// middles' sizes, and root is that whole text's size (the bounds of a
// chain, known without walking it).

const (
	// maxDepth bounds a delta chain: a read opens at most maxDepth+1 files.
	maxDepth = 64
	// maxHeader bounds a header line (the longest: 6+5+64+4×20+5 bytes).
	maxHeader = 256
	magic     = "cs1"
	tmpPrefix = ".tmp-"
)

type blob struct {
	base           Hash // zero: a whole text
	prefix, suffix int64
	depth          int
	chain, root    int64
	size           int64  // of the text
	data           string // the whole text, or the delta's middle
}

func (b *blob) full() bool { return b.base.IsZero() }

func (b *blob) headerLine() string {
	if b.full() {
		return magic + " full\n"
	}
	return fmt.Sprintf("%s delta %s %d %d %d %d %d\n", magic, b.base, b.prefix, b.suffix, b.depth, b.chain, b.root)
}

// parseHeader reads a header line (without its newline); dataLen is the
// size of what follows it.
func parseHeader(line string, dataLen int64) (*blob, error) {
	f := strings.Fields(line)
	switch {
	case len(f) == 2 && f[0] == magic && f[1] == "full":
		return &blob{size: dataLen}, nil
	case len(f) == 8 && f[0] == magic && f[1] == "delta":
		base, err := ParseHash(f[2])
		if err != nil {
			return nil, err
		}
		var n [5]int64
		for i := range n {
			if n[i], err = strconv.ParseInt(f[3+i], 10, 64); err != nil || n[i] < 0 {
				return nil, fmt.Errorf("bad delta header %q", line)
			}
		}
		b := &blob{base: base, prefix: n[0], suffix: n[1], depth: int(n[2]), chain: n[3], root: n[4]}
		b.size = b.prefix + dataLen + b.suffix
		return b, nil
	}
	return nil, fmt.Errorf("not a content file (header %q)", line)
}

func (s *Store) path(h Hash) string { return filepath.Join(s.dir, h.String()) }

// header returns h's blob without its data (with it, in memory). Called with s.mu held.
func (s *Store) header(h Hash) (*blob, error) {
	if b, ok := s.mem[h]; ok {
		return b, nil
	}
	if s.dir == "" {
		return nil, ErrNotFound
	}
	f, err := os.Open(s.path(h))
	if err != nil {
		return nil, notFound(err)
	}
	defer f.Close()
	b, _, err := readHeader(f)
	return b, err
}

// readHeader reads the header line of the content file f and returns it
// and what of the data the read took in.
func readHeader(f *os.File) (*blob, []byte, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	buf := make([]byte, maxHeader)
	n, err := io.ReadFull(f, buf)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return nil, nil, err
	}
	buf = buf[:n]
	end := bytes.IndexByte(buf, '\n')
	if end < 0 {
		return nil, nil, errors.New("not a content file (no header line)")
	}
	b, err := parseHeader(string(buf[:end]), fi.Size()-int64(end+1))
	return b, buf[end+1:], err
}

// read returns h's blob with its data. Called with s.mu held.
func (s *Store) read(h Hash) (*blob, error) {
	if b, ok := s.mem[h]; ok {
		return b, nil
	}
	if s.dir == "" {
		return nil, ErrNotFound
	}
	f, err := os.Open(s.path(h))
	if err != nil {
		return nil, notFound(err)
	}
	defer f.Close()
	b, head, err := readHeader(f)
	if err != nil {
		return nil, err
	}
	dataLen := b.size - b.prefix - b.suffix
	var sb strings.Builder // its String() is the bytes read: no copy
	sb.Grow(int(dataLen))
	sb.Write(head)
	if _, err := io.Copy(&sb, f); err != nil {
		return nil, err
	}
	if int64(sb.Len()) != dataLen {
		return nil, errors.New("content file changed while read")
	}
	b.data = sb.String()
	return b, nil
}

func notFound(err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return ErrNotFound
	}
	return err
}

// write stores b under h durably: a temporary file, fsync'd, renamed, and
// the directory fsync'd, so a crash leaves the whole file or none, and a
// record written after Put returns never names a missing text. Called
// with s.mu held.
func (s *Store) write(h Hash, b *blob) error {
	if !s.made {
		if err := os.MkdirAll(s.dir, 0o700); err != nil {
			return err
		}
		syncDir(filepath.Dir(s.dir))
		s.made = true
	}
	f, err := os.CreateTemp(s.dir, tmpPrefix+"*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, werr := f.WriteString(b.headerLine())
	if werr == nil {
		_, werr = f.WriteString(b.data) // os.File.WriteString does not copy
	}
	serr := f.Sync()
	cerr := f.Close()
	if err := errors.Join(werr, serr, cerr); err != nil {
		_ = os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, s.path(h)); err != nil {
		_ = os.Remove(tmp)
		return err
	}
	syncDir(s.dir)
	return nil
}

// syncDir makes a directory's entries durable, best effort: not every
// file system syncs directories.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		_ = d.Close()
	}
}

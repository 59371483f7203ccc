package tools

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// Ignore rules follow git: every directory's .gitignore applies to the paths
// below it, a deeper file's patterns win over a shallower one's, the last
// matching pattern decides, and `!pattern` re-includes. The pattern grammar
// and the per-directory "domain" come from go-git's gitignore package; this
// file only finds the files and feeds their lines in, lazily, directory by
// directory as the walk goes down, so a tree is never read twice.
//
// Not honoured (on purpose, they live outside the workspace): the user's
// core.excludesFile and /etc/gitconfig. The workspace root's
// .git/info/exclude is honoured.

// ignoreRules are the patterns in force in one directory, lowest priority
// first. Directories without a .gitignore share their parent's value.
type ignoreRules struct {
	patterns []gitignore.Pattern
}

// excluded reports whether the path (components relative to the ignore
// base) is ignored. isDir matters for patterns ending in "/".
func (r *ignoreRules) excluded(parts []string, isDir bool) bool {
	if r == nil {
		return false
	}
	for i := len(r.patterns) - 1; i >= 0; i-- {
		switch r.patterns[i].Match(parts, isDir) {
		case gitignore.Exclude:
			return true
		case gitignore.Include:
			return false
		}
	}
	return false
}

// withFile returns the rules for a directory: the parent's plus the
// patterns of the ignore file name in dir, whose domain is the directory's
// components. A missing file returns r itself. dir is a handle inside the
// workspace, so a .gitignore that is a symlink to outside is not read.
func (r *ignoreRules) withFile(dir *os.Root, name string, domain []string) (*ignoreRules, error) {
	data, err := readIgnoreFile(dir, name)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.ENOTDIR) {
			return r, nil
		}
		return r, fmt.Errorf("read %s: %w", name, err)
	}
	added := parseIgnoreLines(data, domain)
	if len(added) == 0 {
		return r, nil
	}
	next := &ignoreRules{}
	if r != nil {
		next.patterns = append(next.patterns, r.patterns...)
	}
	next.patterns = append(next.patterns, added...)
	return next, nil
}

// maxIgnoreFileBytes bounds an ignore file: one larger is not a list of
// patterns someone wrote.
const maxIgnoreFileBytes = 4 << 20

// readIgnoreFile reads a regular ignore file of at most maxIgnoreFileBytes
// (a FIFO named .gitignore must not block the walk).
func readIgnoreFile(dir *os.Root, name string) ([]byte, error) {
	f, err := dir.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fs.ErrNotExist // not an ignore file
	}
	return io.ReadAll(io.LimitReader(f, maxIgnoreFileBytes))
}

// parseIgnoreLines turns the lines of one ignore file into patterns.
func parseIgnoreLines(data []byte, domain []string) []gitignore.Pattern {
	var out []gitignore.Pattern
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for sc.Scan() {
		line := strings.TrimSuffix(sc.Text(), "\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		// "\#foo" names a file starting with '#'; go-git leaves the escape in.
		if strings.HasPrefix(line, `\#`) {
			line = line[1:]
		}
		out = append(out, gitignore.ParsePattern(line, domain))
	}
	return out
}

// rulesForStart collects the ignore rules in force when listing start, a
// directory at or below base (a workspace root's handle; start is relative
// to it): base's .git/info/exclude, then every .gitignore from base down to
// start's parent (start's own is read when it is listed). It also returns
// start's components.
func rulesForStart(base *os.Root, start string) (*ignoreRules, []string, error) {
	var rules *ignoreRules
	rules, err := rules.withFile(base, filepath.Join(".git", "info", "exclude"), nil)
	if err != nil {
		return nil, nil, err
	}
	if start == ".." || strings.HasPrefix(start, ".."+string(filepath.Separator)) || filepath.IsAbs(start) {
		return nil, nil, fmt.Errorf("%s is not inside the workspace root", start)
	}
	var parts []string
	if start != "." {
		parts = strings.Split(start, string(filepath.Separator))
	}
	for i := range parts {
		dir := filepath.Join(append([]string{"."}, parts[:i]...)...)
		rules, err = rules.withFile(base, filepath.Join(dir, ".gitignore"), parts[:i])
		if err != nil {
			return nil, nil, err
		}
	}
	return rules, parts, nil
}

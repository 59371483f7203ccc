package tools

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

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
// patterns of the ignore file at path, whose domain is the directory's
// components. A missing file returns r itself.
func (r *ignoreRules) withFile(path string, domain []string) (*ignoreRules, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) {
			return r, nil
		}
		return r, fmt.Errorf("read %s: %w", path, err)
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
// directory at or below base: base's .git/info/exclude, then every
// .gitignore from base down to start's parent (start's own is read when it
// is listed). It also returns start's components relative to base.
func rulesForStart(base, start string) (*ignoreRules, []string, error) {
	var rules *ignoreRules
	rules, err := rules.withFile(filepath.Join(base, ".git", "info", "exclude"), nil)
	if err != nil {
		return nil, nil, err
	}
	rel, err := filepath.Rel(base, start)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return nil, nil, fmt.Errorf("%s is not inside %s", start, base)
	}
	var parts []string
	if rel != "." {
		parts = strings.Split(rel, string(filepath.Separator))
	}
	dir := base
	for i := range parts {
		rules, err = rules.withFile(filepath.Join(dir, ".gitignore"), parts[:i])
		if err != nil {
			return nil, nil, err
		}
		dir = filepath.Join(dir, parts[i])
	}
	return rules, parts, nil
}

// ignoreBase returns the workspace root holding abs: .gitignore files are
// read from there down, and their patterns are relative to it.
func ignoreBase(ws *Workspace, abs string) string {
	rel := ws.Rel(abs)
	if rel == "." || filepath.IsAbs(rel) {
		return abs
	}
	return strings.TrimSuffix(abs, string(filepath.Separator)+filepath.FromSlash(rel))
}

package tools

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/agent-lsp/agent-lsp/permission"
)

const globMaxResults = 200

type globArgs struct {
	Pattern string `json:"pattern"`
	Path    string `json:"path,omitempty"`
}

type globTool struct{}

// NewGlob returns the glob tool: files whose path matches a `**` pattern,
// newest first, .gitignore-aware.
func NewGlob() Tool { return globTool{} }

func (globTool) Name() string { return "glob" }

func (globTool) Description() string {
	return "Find files by path pattern: `**` matches any number of directories, `*` and `?` within a name, `{a,b}` either; " +
		"e.g. `**/*.go`, `src/**/test_*.py`. The pattern is relative to path (default: workspace root), so `*.go` is top level only. " +
		"Lists files (not directories), newest first, at most 200. Skips .git and .gitignore'd files. " +
		"Use grep to search file contents."
}

func (globTool) Schema() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{` +
		`"pattern":{"type":"string","description":"Glob, e.g. **/*.ts"},` +
		`"path":{"type":"string","description":"Directory to search (default: workspace root)"}},` +
		`"required":["pattern"],"additionalProperties":false}`)
}

func (globTool) Describe(_ context.Context, raw json.RawMessage, env *Env) (permission.Action, error) {
	q, err := globParse(raw, env)
	if err != nil {
		return permission.Action{}, err
	}
	rel := env.Workspace.Rel(q.dir)
	return permission.Action{
		Tool: "glob", Summary: fmt.Sprintf("glob %s in %s", q.pattern, rel), Scope: "glob",
		Risk: permission.Low, ReadOnly: true, Path: rel,
	}, nil
}

func (globTool) Run(ctx context.Context, raw json.RawMessage, env *Env) (Result, error) {
	q, err := globParse(raw, env)
	if err != nil {
		return Result{}, err
	}
	found, err := q.find(ctx, env.Workspace)
	if err != nil {
		return Result{}, fmt.Errorf("glob: %w", err)
	}
	if len(found) == 0 {
		return Result{Output: fmt.Sprintf("no files match %s in %s", q.pattern, env.Workspace.Rel(q.dir))}, nil
	}
	slices.SortFunc(found, func(a, b globMatch) int {
		if c := b.mtime.Compare(a.mtime); c != 0 {
			return c
		}
		return cmp.Compare(a.abs, b.abs)
	})
	var b strings.Builder
	for _, m := range found[:min(len(found), globMaxResults)] {
		b.WriteString(env.Workspace.Rel(m.abs))
		b.WriteByte('\n')
	}
	if more := len(found) - globMaxResults; more > 0 {
		fmt.Fprintf(&b, "[%d more not shown (%d files match); narrow the pattern or path]\n", more, len(found))
	}
	return Result{Output: strings.TrimSuffix(b.String(), "\n")}, nil
}

// globQuery is a parsed glob call.
type globQuery struct {
	pattern string // relative to dir, slash-separated
	dir     string // resolved directory the pattern is relative to
	// base is the pattern's fixed leading directories ("src" in
	// "src/**/*.go", "." if none) and start the resolved directory they
	// name: only start is walked.
	base, start string
}

type globMatch struct {
	abs   string
	mtime time.Time
}

func globParse(raw json.RawMessage, env *Env) (globQuery, error) {
	var args globArgs
	if err := decodeArgs(raw, &args); err != nil {
		return globQuery{}, err
	}
	pattern := filepath.ToSlash(args.Pattern)
	if pattern == "" {
		return globQuery{}, errors.New("pattern is empty")
	}
	if !doublestar.ValidatePattern(pattern) {
		return globQuery{}, fmt.Errorf("invalid glob %q (use *, **, ?, [abc], {a,b})", args.Pattern)
	}
	path := args.Path
	if filepath.IsAbs(args.Pattern) {
		// Models often send absolute patterns: split off the directory.
		if path != "" {
			return globQuery{}, fmt.Errorf("pattern %q is absolute; give a pattern relative to path", args.Pattern)
		}
		path, pattern = doublestar.SplitPattern(pattern)
	}
	for strings.HasPrefix(pattern, "./") {
		pattern = pattern[2:]
	}
	if path == "" {
		path = "."
	}
	dir, err := env.Workspace.Resolve(path)
	if err != nil {
		return globQuery{}, err
	}
	fi, err := env.Workspace.Stat(dir)
	if err != nil {
		return globQuery{}, fmt.Errorf("path %s: %w", env.Workspace.Rel(dir), err)
	}
	if !fi.IsDir() {
		return globQuery{}, fmt.Errorf("path %s is a file, not a directory", env.Workspace.Rel(dir))
	}
	q := globQuery{pattern: pattern, dir: dir, start: dir}
	q.base, _ = doublestar.SplitPattern(pattern)
	if q.base != "." {
		q.start, err = env.Workspace.Resolve(filepath.Join(dir, filepath.FromSlash(q.base)))
		if err != nil {
			return globQuery{}, fmt.Errorf("pattern %q: %w", args.Pattern, err)
		}
	}
	return q, nil
}

// find walks start and returns the matching files with their mtimes.
func (q globQuery) find(ctx context.Context, ws *Workspace) ([]globMatch, error) {
	base, start := q.base, q.start
	if _, err := ws.Stat(start); errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	var mu sync.Mutex
	var found []globMatch
	visit := func(f walkedFile) {
		// The path as the pattern sees it: base (as written, even if it
		// went through a symlink) plus the part below start.
		rel := base
		if f.Abs != start {
			below := filepath.ToSlash(strings.TrimPrefix(f.Abs, start+string(filepath.Separator)))
			rel = strings.TrimPrefix(base+"/"+below, "./")
		}
		if !doublestar.MatchUnvalidated(q.pattern, rel) {
			return
		}
		info, err := f.Info()
		if err != nil {
			return // gone since it was listed
		}
		mu.Lock()
		found = append(found, globMatch{abs: f.Abs, mtime: info.ModTime()})
		mu.Unlock()
	}
	if err := walkFiles(ctx, ws, start, 0, visit); err != nil {
		return nil, err
	}
	return found, nil
}

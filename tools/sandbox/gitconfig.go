package sandbox

import (
	"os"
	"path/filepath"
	"strings"

	gitconfig "github.com/go-git/go-git/v5/plumbing/format/config"
)

// gitSettings is what a repository's configuration says about where git
// takes code from: every core.hooksPath value and every included file,
// whichever wins in the end (a superset is safe: each is protected).
type gitSettings struct {
	hooksPaths     []string // as written (relative, ~/ or absolute)
	includes       []string // included config files, absolute
	worktreeConfig bool     // extensions.worktreeConfig: config.worktree is read
}

// maxIncludeDepth is how deep includes are followed (git's own limit is 10).
const maxIncludeDepth = 10

// readGitSettings reads the config files in order (git reads system,
// global, then the repository's), following include.path and every
// includeIf.*.path whatever its condition. The parser is go-git's (the
// gcfg grammar git uses), not hand-written; a file that is missing or
// does not parse adds nothing.
func readGitSettings(home string, files ...string) gitSettings {
	var st gitSettings
	for _, f := range files {
		st.read(f, home, 0)
	}
	return st
}

func (st *gitSettings) read(path, home string, depth int) {
	if depth > maxIncludeDepth {
		return
	}
	cfg := decodeGitConfig(path)
	if cfg == nil {
		return
	}
	for _, sec := range cfg.Sections {
		switch {
		case sec.IsName("core"):
			st.hooksPaths = append(st.hooksPaths, sec.Options.GetAll("hooksPath")...)
		case sec.IsName("extensions"):
			if v := strings.ToLower(sec.Options.Get("worktreeConfig")); v == "true" || v == "yes" || v == "on" || v == "1" {
				st.worktreeConfig = true
			}
		case sec.IsName("include"):
			st.include(path, home, depth, sec.Options.GetAll("path"))
		case sec.IsName("includeIf"):
			for _, sub := range sec.Subsections {
				st.include(path, home, depth, sub.Options.GetAll("path"))
			}
		}
	}
}

// include follows included files: a relative path is relative to the
// directory of the file that includes it, as git takes it.
func (st *gitSettings) include(from, home string, depth int, paths []string) {
	for _, p := range paths {
		if p = expandHome(p, home); p == "" {
			continue
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(filepath.Dir(from), p)
		}
		st.includes = append(st.includes, filepath.Clean(p))
		st.read(p, home, depth+1)
	}
}

// globalGitConfigs are the user's and the system's config files, in the
// order git reads them.
func globalGitConfigs(home string) []string {
	files := []string{"/etc/gitconfig"}
	xdg := os.Getenv("XDG_CONFIG_HOME")
	if !filepath.IsAbs(xdg) && home != "" {
		xdg = filepath.Join(home, ".config")
	}
	if xdg != "" {
		files = append(files, filepath.Join(xdg, "git", "config"))
	}
	if home != "" {
		files = append(files, filepath.Join(home, ".gitconfig"))
	}
	return files
}

// expandHome expands ~/ as git does in paths; "" for ~user forms, which
// this does not resolve.
func expandHome(p, home string) string {
	switch {
	case p == "~" || strings.HasPrefix(p, "~/"):
		if home == "" {
			return ""
		}
		return filepath.Join(home, p[1:])
	case strings.HasPrefix(p, "~"):
		return ""
	}
	return p
}

// readGitdirFile reads a `.git` file ("gitdir: <path>", a linked
// worktree's or a submodule checkout's) and returns the git dir it names,
// absolute; "" when it names none.
func readGitdirFile(path string) string {
	line := firstLine(path)
	dir, ok := strings.CutPrefix(line, "gitdir: ")
	if !ok || dir == "" {
		return ""
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(filepath.Dir(path), dir)
	}
	return filepath.Clean(dir)
}

// firstLine is the first line of a small file, "" if unreadable.
func firstLine(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	buf := make([]byte, 4096)
	n, _ := f.Read(buf)
	line, _, _ := strings.Cut(string(buf[:n]), "\n")
	return strings.TrimRight(line, "\r")
}

// readCoreWorktree is core.worktree of a config file, "" when unset.
func readCoreWorktree(path string) string {
	cfg := decodeGitConfig(path)
	if cfg == nil {
		return ""
	}
	return cfg.Section("core").Options.Get("worktree")
}

// readSubmodulePaths are the paths a .gitmodules file lists.
func readSubmodulePaths(path string) []string {
	cfg := decodeGitConfig(path)
	if cfg == nil {
		return nil
	}
	var out []string
	for _, sub := range cfg.Section("submodule").Subsections {
		if p := sub.Options.Get("path"); p != "" && !filepath.IsAbs(p) {
			out = append(out, filepath.Clean(p))
		}
	}
	return out
}

// decodeGitConfig parses a git config file; nil when it is missing or
// does not parse.
func decodeGitConfig(path string) *gitconfig.Config {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	cfg := gitconfig.New()
	if err := gitconfig.NewDecoder(f).Decode(cfg); err != nil {
		return nil
	}
	return cfg
}

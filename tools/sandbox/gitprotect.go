package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agent-lsp/agent-lsp/permission"
)

// gitGuard is what keeps the git metadata of the writable dirs out of a
// command's reach. Git runs code from its configuration (core.fsmonitor,
// core.hooksPath, filters, aliases, ...), its hooks and what those name;
// code planted there from inside the sandbox would run unsandboxed at the
// user's or the editor's next `git status` or `git commit`. So every path
// git takes code or configuration from, whatever the layout (a .git
// directory, a .git file of a linked worktree or a submodule checkout, a
// commondir, submodule git dirs, worktree admin dirs, core.hooksPath,
// included config files, hook managers' configs), is protected; objects,
// refs, logs, the index and HEAD stay writable, so that `git add`,
// `git commit` and `git checkout -b` work inside the sandbox.
type gitGuard struct {
	// pinned are directories bind-mounted onto themselves: a mount point
	// cannot be renamed, removed or replaced (EBUSY), so the git dir stays
	// the one whose parts are protected; what is inside stays writable.
	pinned []string
	// readOnly are the protected paths (files and directories),
	// bind-mounted read-only where they exist, watched by the tripwire
	// where a mount cannot hold them (missing, symlinks); without
	// namespaces they are left out of the grants, which also keeps the
	// missing ones from being created (their directory is then split,
	// see cover).
	readOnly []string
	// createDirs are protected directories git itself creates (hooks,
	// info, a core.hooksPath target): made empty before a namespaced
	// command when missing, as `git init` does, so that they can be
	// mounted read-only rather than planted.
	createDirs []string
	// createFiles are protected files git reads that an empty file means
	// the same as none (config.worktree): made before a namespaced command.
	createFiles []string
	// git are the readOnly paths the git walk protects, files those of
	// the protected workspace files' list (workspace_files.go), for
	// Explain (a hook manager's directory may be both: git's, then).
	git, files []string
	// absent are protected workspace files the listing of their
	// directory showed missing (gitMounts watches them without a look).
	absent map[string]bool
	// patterns are protected workspace files named by a pattern
	// (dir/*.code-workspace): watched, so that no new match appears.
	patterns []string
}

// maxGitDepth bounds how deep submodules of submodules are followed.
const maxGitDepth = 8

// gitWalk finds the protected paths of the writable dirs.
type gitWalk struct {
	writable []string
	home     string
	files    []string // the protected workspace files' names (permission.ProtectedFiles)
	seen     map[string]bool
	guard    gitGuard
}

// guardGit finds what must be protected in the writable dirs (resolved
// paths), the protected workspace files named by files included. It takes its answers from what the sandbox protects (configs,
// hooks, pinned directories), or from files that can only add
// protection (.gitmodules), so that a command cannot unprotect a path
// for the next one.
func guardGit(writable []string, home string, files []string) gitGuard {
	w := &gitWalk{writable: writable, home: home, files: files, seen: map[string]bool{}}
	for _, root := range writable {
		w.checkout(root, 0)
		w.nestedCheckouts(root)
	}
	w.pinAncestors()
	for _, l := range []*[]string{&w.guard.pinned, &w.guard.readOnly, &w.guard.createDirs, &w.guard.createFiles, &w.guard.git, &w.guard.files, &w.guard.patterns} {
		slices.Sort(*l)
		*l = slices.Compact(*l)
	}
	return w.guard
}

// writableAt reports whether path lies in a writable dir: only there can
// a command change it, and only there is it protected.
func (w *gitWalk) writableAt(path string) bool {
	for _, d := range w.writable {
		if within(d, path) {
			return true
		}
	}
	return false
}

func (w *gitWalk) protect(path string) {
	if w.writableAt(path) {
		w.guard.readOnly = append(w.guard.readOnly, path)
		w.guard.git = append(w.guard.git, path)
	}
}

func (w *gitWalk) protectDir(path string) {
	if w.writableAt(path) {
		w.guard.readOnly = append(w.guard.readOnly, path)
		w.guard.git = append(w.guard.git, path)
		w.guard.createDirs = append(w.guard.createDirs, path)
	}
}

func (w *gitWalk) pin(dir string) {
	if w.writableAt(dir) {
		w.guard.pinned = append(w.guard.pinned, dir)
	}
}

// checkout protects the git dir of a working tree at dir: a workspace
// root, a submodule's or a linked worktree's checkout.
func (w *gitWalk) checkout(dir string, depth int) {
	if depth > maxGitDepth {
		return
	}
	dotgit := filepath.Join(dir, ".git")
	fi, err := os.Lstat(dotgit)
	if depth == 0 || err == nil {
		w.workspaceFiles(dir)
	}
	if err != nil {
		if depth == 0 {
			// A writable dir that is no repository (or lies inside one
			// whose git dir is elsewhere) must not become one: editors
			// find a workspace's new repository on their own and run git
			// status in it, with whatever config the command planted.
			w.protect(dotgit)
		}
		return
	}
	switch {
	case fi.IsDir():
		w.gitDir(dotgit, dir, depth)
	case fi.Mode().IsRegular():
		// A linked worktree's or an absorbed submodule's checkout: the
		// file says where the git dir is, so rewriting it would shadow it.
		w.protect(dotgit)
		if gd := readGitdirFile(dotgit); gd != "" {
			w.gitDir(gd, dir, depth)
		}
	case fi.Mode()&os.ModeSymlink != 0:
		w.protect(dotgit)
		if gd, err := filepath.EvalSymlinks(dotgit); err == nil {
			w.gitDir(gd, dir, depth)
		}
	}
	w.submodulesListed(dir, depth)
}

// gitDir protects one git dir (the main one, a linked worktree's admin
// dir or a submodule's) with worktree as its checkout ("" when none).
func (w *gitWalk) gitDir(dir, worktree string, depth int) {
	dir = resolve(dir)
	if depth > maxGitDepth || w.seen[dir] {
		return
	}
	w.seen[dir] = true
	w.pin(dir)
	// commondir redirects the whole repository: where it exists (a
	// linked worktree) it is read-only; where it does not, it must not
	// be created (see gitGuard.readOnly).
	commondir := filepath.Join(dir, "commondir")
	w.protect(commondir)
	common := dir
	if c := firstLine(commondir); c != "" {
		if !filepath.IsAbs(c) {
			c = filepath.Join(dir, c)
		}
		common = resolve(c)
	}
	// gitdir points a worktree's admin dir back at its checkout.
	if exists(filepath.Join(dir, "gitdir")) {
		w.protect(filepath.Join(dir, "gitdir"))
	}
	configs := append(globalGitConfigs(w.home), filepath.Join(common, "config"))
	st := readGitSettings(w.home, configs...)
	worktreeConfig := filepath.Join(dir, "config.worktree")
	w.protect(worktreeConfig)
	if st.worktreeConfig {
		st = readGitSettings(w.home, append(configs, worktreeConfig)...)
		// Read by git: created empty when missing (as `git config
		// --worktree` does), so that it is mounted, not planted.
		if w.writableAt(worktreeConfig) {
			w.guard.createFiles = append(w.guard.createFiles, worktreeConfig)
		}
	}
	for _, inc := range st.includes {
		w.protect(inc)
	}
	base := worktree
	if base == "" {
		base = dir // a bare repository runs its hooks in the git dir
	}
	w.hooks(filepath.Join(common, "hooks"), worktree)
	for _, hp := range st.hooksPaths {
		if hp = expandHome(hp, w.home); hp != "" {
			if !filepath.IsAbs(hp) {
				hp = filepath.Join(base, hp)
			}
			w.hooks(filepath.Clean(hp), worktree)
		}
	}
	w.common(common, depth)
}

// common protects what a repository's linked worktrees share: its
// config, hooks, info, submodules' git dirs and worktree admin dirs.
func (w *gitWalk) common(common string, depth int) {
	key := common + "\x00common"
	if w.seen[key] {
		return
	}
	w.seen[key] = true
	w.pin(common)
	w.protect(filepath.Join(common, "config"))
	w.protectDir(filepath.Join(common, "info"))
	w.modules(filepath.Join(common, "modules"), depth+1, 0)
	admins, _ := os.ReadDir(filepath.Join(common, "worktrees"))
	if len(admins) > 0 {
		w.pin(filepath.Join(common, "worktrees"))
	}
	for _, a := range admins {
		if !a.IsDir() {
			continue
		}
		admin := filepath.Join(common, "worktrees", a.Name())
		// The admin dir's gitdir names the checkout's .git file.
		checkout := ""
		if f := firstLine(filepath.Join(admin, "gitdir")); filepath.IsAbs(f) {
			checkout = filepath.Dir(f)
			w.protect(f)
		}
		w.gitDir(admin, checkout, depth+1)
	}
}

// modules protects the submodules' git dirs under dir (a submodule's name
// may hold slashes, so a dir without HEAD is looked into).
func (w *gitWalk) modules(dir string, depth, nameDepth int) {
	if nameDepth > maxGitDepth {
		return
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	w.pin(dir)
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		sub := filepath.Join(dir, e.Name())
		if !exists(filepath.Join(sub, "HEAD")) {
			w.modules(sub, depth, nameDepth+1)
			continue
		}
		// core.worktree of the submodule's own (protected) config says
		// where its checkout is.
		wt := ""
		if v := readCoreWorktree(filepath.Join(sub, "config")); v != "" {
			if !filepath.IsAbs(v) {
				v = filepath.Join(sub, v)
			}
			wt = filepath.Clean(v)
		}
		w.gitDir(sub, wt, depth)
		if wt != "" {
			w.checkout(wt, depth+1)
		}
	}
}

// nestedCheckouts protects the repositories right below a writable dir:
// a folder of projects opened as one workspace, each its own repository,
// which editors find and run git in (VS Code scans one level down by
// default). Deeper ones are not looked for: that would walk the whole
// workspace for every command.
func (w *gitWalk) nestedCheckouts(root string) {
	entries, err := os.ReadDir(root)
	if err != nil {
		return
	}
	for _, e := range entries {
		if e.IsDir() && e.Name() != ".git" {
			if dir := filepath.Join(root, e.Name()); exists(filepath.Join(dir, ".git")) {
				w.checkout(dir, 1)
			}
		}
	}
}

// submodulesListed protects the checkouts .gitmodules lists: a
// submodule whose git dir is still inside its checkout (not absorbed into
// .git/modules) is found only there.
func (w *gitWalk) submodulesListed(dir string, depth int) {
	for _, p := range readSubmodulePaths(filepath.Join(dir, ".gitmodules")) {
		if sub := filepath.Join(dir, p); isUnder(dir, sub) {
			w.checkout(sub, depth+1)
		}
	}
}

// hookManagerConfig finds the config file an installed pre-commit hook
// passes (pre-commit writes `--config=.pre-commit-config.yaml`).
var hookManagerConfig = permission.LazyRegexp(`--config[= ]([^\s"')]+)`)

// hooks protects a hooks dir and what its hooks run from: husky's
// directory when the hooks path is inside it, and the configuration of
// pre-commit and lefthook when an installed hook runs them (their
// configs name the commands to run at the next commit): a config given
// by --config, and the hook managers' entries of the protected files'
// list (permission.HookManagerConfigs), also in a checkout that is not a
// writable dir's own. Other programs
// a hook calls from the checkout (node_modules, scripts) are project
// code, like a Makefile, and stay writable.
func (w *gitWalk) hooks(dir, worktree string) {
	if r, err := filepath.EvalSymlinks(dir); err == nil && r != dir {
		w.protect(dir) // the link (kept out of the grants without namespaces)
		dir = r
	}
	w.protectDir(dir)
	if i := strings.Index(dir+"/", "/.husky/"); i >= 0 {
		w.protect(dir[:i+len("/.husky")])
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".sample") || e.IsDir() {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil || len(data) > 1<<20 {
			continue
		}
		text := string(data)
		if (strings.Contains(text, "pre-commit") || strings.Contains(text, "pre_commit")) && worktree != "" {
			for _, m := range hookManagerConfig().FindAllStringSubmatch(text, -1) {
				if p := m[1]; !filepath.IsAbs(p) {
					w.protect(filepath.Join(worktree, p))
				}
			}
		}
		if (strings.Contains(text, "pre-commit") || strings.Contains(text, "pre_commit") || strings.Contains(text, "lefthook")) && worktree != "" {
			for _, c := range permission.HookManagerConfigs() {
				w.protect(filepath.Join(worktree, filepath.FromSlash(c)))
			}
		}
	}
}

// pinAncestors pins every directory between a protected path and the
// writable dir it is in: a directory whose parent is writable could be
// renamed away with the protected path inside, and a planted one put in
// its place (mv .git/modules x; mkdir -p .git/modules/sub ...).
func (w *gitWalk) pinAncestors() {
	for _, p := range append(append([]string(nil), w.guard.readOnly...), w.guard.pinned...) {
		for a := filepath.Dir(p); a != filepath.Dir(a) && w.writableAt(filepath.Dir(a)); a = filepath.Dir(a) {
			w.guard.pinned = append(w.guard.pinned, a)
		}
	}
}

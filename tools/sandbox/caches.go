package sandbox

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// Build tools keep caches in the home directory, which commands may not
// write: a command that could write ~/.cache/go-build or ~/.cargo/registry
// could plant code that the user's next build, outside the sandbox,
// compiles in. So commands get caches of their own instead, one set per
// workspace, kept across commands and sessions (a second `go build` is as
// fast as outside), and shared with nothing outside the sandbox. What a
// cache holds was written by sandboxed commands of this workspace only.
//
// cacheVars are the variables that point each tool at its cache dir,
// relative to the workspace's sandbox cache. The modules and packages
// already downloaded outside (GOMODCACHE, ~/.cargo/registry) stay
// readable; downloading more needs the network (sandbox.network allow).
var cacheVars = []struct{ name, dir string }{
	{"GOCACHE", "go-build"},
	{"npm_config_cache", "npm"},
	{"YARN_CACHE_FOLDER", "yarn"},
	{"PIP_CACHE_DIR", "pip"},
	{"UV_CACHE_DIR", "uv"},
}

// sandboxCacheDir is the workspace's cache dir, under the user's cache
// home ($XDG_CACHE_HOME or ~/.cache)/agent-lsp/sandbox/<hash of the
// root>, created 0700. "" when it cannot be created (no home): the
// caches then live in the private temp dir, for this session only. The
// other workspaces' caches are pruned later (pruneCaches, after the
// sandbox's check): with hundreds of them that is a directory read and a
// file read each, not for the way to a first answer.
func sandboxCacheDir(home, root string) string {
	base := os.Getenv("XDG_CACHE_HOME")
	if !filepath.IsAbs(base) {
		if home == "" {
			return ""
		}
		base = filepath.Join(home, ".cache")
	}
	sum := sha256.Sum256([]byte(root))
	parent := filepath.Join(base, "agent-lsp", "sandbox")
	dir := filepath.Join(parent, filepath.Base(root)+"-"+hex.EncodeToString(sum[:6]))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return ""
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		return ""
	}
	markCache(dir, root)
	return resolve(dir)
}

// cacheOwner names, in each cache dir, the workspace root it belongs to.
const cacheOwner = ".workspace"

// markCache writes dir's owner, through an os.Root: commands may write
// the cache dir, and a link they left there must not send the write
// elsewhere.
func markCache(dir, root string) {
	r, err := os.OpenRoot(dir)
	if err != nil {
		return
	}
	defer r.Close()
	if b, err := r.ReadFile(cacheOwner); err == nil && string(b) == root {
		return
	}
	_ = r.Remove(cacheOwner)
	_ = r.WriteFile(cacheOwner, []byte(root), 0o600)
}

// pruneCaches removes the cache dirs under parent, other than keep, whose
// workspace root no longer exists (a deleted project, a test's
// workspace): the caches would otherwise grow with every workspace ever
// opened. It stops early when ctx ends.
func pruneCaches(ctx context.Context, parent, keep string) {
	entries, err := os.ReadDir(parent)
	if err != nil {
		return
	}
	for _, e := range entries {
		if ctx.Err() != nil {
			return
		}
		dir := filepath.Join(parent, e.Name())
		if !e.IsDir() || dir == keep {
			continue
		}
		r, err := os.OpenRoot(dir)
		if err != nil {
			continue
		}
		owner, err := r.ReadFile(cacheOwner)
		r.Close()
		if err != nil || !filepath.IsAbs(string(owner)) {
			// No owner: whose it is cannot be told, so it is kept, unless
			// it is empty (rmdir removes nothing else): 805 such dirs had
			// piled up here, each read at every start.
			_ = os.Remove(dir)
			continue
		}
		if _, err := os.Lstat(string(owner)); errors.Is(err, fs.ErrNotExist) {
			_ = os.RemoveAll(dir) // removes links, never follows them
		}
	}
}

// withCaches points the build tools' caches into dir (the variables the
// user set are replaced: they name places commands may not write).
func withCaches(env []string, dir string) []string {
	for _, v := range cacheVars {
		env = append(withoutVar(env, v.name), v.name+"="+filepath.Join(dir, v.dir))
	}
	return env
}

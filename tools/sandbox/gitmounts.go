package sandbox

import (
	"os"
	"path/filepath"
)

// gitMounts are the mounts that protect the git metadata in a command's
// mount namespace: the pinned directories, then the read-only paths, each
// where it exists as a directory or a regular file (a mount would follow
// a symlink; guardGit lists a link's target itself). The launcher mounts
// them in this order, outer before inner (sorted), so that each read-only
// mount lies on the pinned mount of its git dir. Missing protected
// directories are created first, empty, as `git init` does.
func gitMounts(g gitGuard, writable []string) (pinned, readOnly []string) {
	for _, d := range g.createDirs {
		createInside(d, writable)
	}
	for _, p := range g.pinned {
		if fi, err := os.Lstat(p); err == nil && fi.IsDir() {
			pinned = append(pinned, p)
		}
	}
	for _, p := range g.readOnly {
		if fi, err := os.Lstat(p); err == nil && (fi.IsDir() || fi.Mode().IsRegular()) {
			readOnly = append(readOnly, p)
		}
	}
	return pinned, readOnly
}

// createInside makes the directory dir (and its missing parents) through
// an os.Root on the writable dir it is in, so that a symlink a command
// planted on the way cannot send the daemon's mkdir outside.
func createInside(dir string, writable []string) {
	if exists(dir) {
		return
	}
	for _, w := range writable {
		if !isUnder(w, dir) {
			continue
		}
		rel, err := filepath.Rel(w, dir)
		if err != nil {
			return
		}
		root, err := os.OpenRoot(w)
		if err != nil {
			return
		}
		defer root.Close()
		// A failure leaves the path missing and not mounted: what kept
		// the daemon from creating it (permissions, a file in the way)
		// keeps the command, which runs as the same user, from it too.
		_ = root.MkdirAll(rel, 0o755)
		return
	}
}

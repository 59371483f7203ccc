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
// directories are created first, empty, as `git init` does; the
// protected paths that still do not exist, and the symlinks, are watched
// instead (see tripwire).
func gitMounts(g gitGuard, writable []string) (pinned, readOnly []string, watched []tripPath) {
	for _, d := range g.createDirs {
		createInside(d, writable, true)
	}
	for _, f := range g.createFiles {
		createInside(f, writable, false)
	}
	for _, p := range g.pinned {
		if fi, err := os.Lstat(p); err == nil && fi.IsDir() {
			pinned = append(pinned, p)
		}
	}
	parents := map[string]bool{}
	parentExists := func(p string) bool {
		d := filepath.Dir(p)
		e, ok := parents[d]
		if !ok {
			e = exists(d)
			parents[d] = e
		}
		return e
	}
	// What git's guard protects too may have been created just now
	// (createDirs: a missing core.hooksPath target): looked at again.
	gitToo := make(map[string]bool, len(g.git))
	for _, p := range g.git {
		gitToo[p] = true
	}
	for _, p := range g.readOnly {
		if g.absent[p] && !gitToo[p] {
			if parentExists(p) {
				watched = append(watched, tripPath{Path: p})
			}
			continue
		}
		fi, err := os.Lstat(p)
		switch {
		case err == nil && (fi.IsDir() || fi.Mode().IsRegular()):
			readOnly = append(readOnly, p)
		case err == nil && fi.Mode()&os.ModeSymlink != 0:
			if link, err := os.Readlink(p); err == nil {
				watched = append(watched, tripPath{Path: p, Link: link})
			}
		case err != nil && parentExists(p):
			watched = append(watched, tripPath{Path: p})
		}
	}
	for _, p := range g.patterns {
		if exists(filepath.Dir(p)) {
			watched = append(watched, tripPath{Path: p, Pattern: true})
		}
	}
	return pinned, readOnly, watched
}

// tripPath is a protected path a mount cannot hold: one that must stay
// missing (Link ""), or a symlink that must keep pointing at Link (the
// mount would land on its target, which guardGit protects, while the link
// itself could be replaced).
type tripPath struct {
	Path, Link string
	// Pattern: Path's last part is a pattern no new entry of its
	// directory may match (those there when the watch began may stay:
	// they are mounted read-only).
	Pattern bool
	before  []string // the matching names when the watch began
}

// createInside makes path, a directory (with its missing parents) or an
// empty file, through an os.Root on the writable dir it is in, so that a
// symlink a command planted on the way cannot send the daemon's write
// outside.
func createInside(path string, writable []string, dir bool) {
	if exists(path) {
		return
	}
	for _, w := range writable {
		if !isUnder(w, path) {
			continue
		}
		rel, err := filepath.Rel(w, path)
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
		if dir {
			_ = root.MkdirAll(rel, 0o755)
		} else if f, err := root.OpenFile(rel, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644); err == nil {
			_ = f.Close()
		}
		return
	}
}

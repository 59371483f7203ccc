package sandbox

import (
	"os"
	"path/filepath"
	"strings"
)

// grant is one path a Landlock rule names.
type grant struct {
	Path string `json:"p"`
	Dir  bool   `json:"d"`
}

// cover returns the paths whose subtrees together hold everything under
// root except the excluded paths (Landlock can only allow, and a rule on
// a directory covers all of it), and the directories that lie between
// root and an excluded path (listable, so `ls ~` works, but their own
// rule must not cover the excluded child).
//
// A directory with nothing excluded below it is one grant; one with an
// exclusion below is split into its entries, recursively. Symlinks among
// the entries are left out: a rule on a link applies to its target,
// which may be excluded or outside root; the target has its own grant
// when it is allowed. Entries created after the walk are not in a split
// directory's grants: the write grants are computed again for every
// command, the read grants whenever a directory they split has changed
// (readRules).
func cover(root string, excluded []string) (grants []grant, ancestors []string) {
	return coverStamped(root, excluded, nil)
}

// coverStamped is cover calling stamp (when not nil) on each directory
// just before it lists it to split it.
func coverStamped(root string, excluded []string, stamp func(dir string)) (grants []grant, ancestors []string) {
	root = filepath.Clean(root)
	fi, err := os.Lstat(root)
	if err != nil {
		return nil, nil
	}
	return coverBelow(root, fi.IsDir(), excluded, stamp)
}

// coverBelow is coverStamped for a root known to exist (isDir: a
// directory).
func coverBelow(root string, isDir bool, excluded []string, stamp func(dir string)) (grants []grant, ancestors []string) {
	var below []string
	for _, e := range excluded {
		if within(e, root) {
			return nil, nil // root is (inside) an excluded path
		}
		if isUnder(root, e) {
			below = append(below, e)
		}
	}
	if len(below) == 0 {
		return []grant{{Path: root, Dir: isDir}}, nil
	}
	if !isDir {
		return nil, nil
	}
	if stamp != nil {
		stamp(root)
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil, nil // unlistable: nothing under it is granted
	}
	ancestors = append(ancestors, root)
	for _, ent := range entries {
		if ent.Type()&os.ModeSymlink != 0 {
			continue
		}
		g, a := coverBelow(filepath.Join(root, ent.Name()), ent.IsDir(), below, stamp)
		grants = append(grants, g...)
		ancestors = append(ancestors, a...)
	}
	return grants, ancestors
}

// isUnder reports whether p lies strictly below dir (both clean).
func isUnder(dir, p string) bool {
	if dir == "/" {
		return p != "/" && strings.HasPrefix(p, "/")
	}
	// Without building dir+"/": this runs for every entry of every split
	// directory, on every command.
	return len(p) > len(dir) && p[len(dir)] == '/' && strings.HasPrefix(p, dir)
}

// within reports whether p is dir or lies below it.
func within(dir, p string) bool { return p == dir || isUnder(dir, p) }

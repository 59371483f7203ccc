package sandbox

import (
	"os"
	"slices"
	"sync"

	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// readRules are the read grants around the hidden paths (cover of "/"),
// kept between commands with a descriptor open on each granted path, so
// that a command's ruleset costs one landlock_add_rule per grant instead
// of a directory walk and an open per grant: with a home of 1,000
// entries, that walk and those opens were most of a command's start.
//
// They are computed again when a directory they split has changed
// (stamps: an entry created, removed or renamed in it changes its mtime,
// a chmod its ctime, a replacement its inode), so a secret store created
// since, or a granted directory renamed onto a store's path, is hidden as
// if the rules were computed for this command. A store created in a
// directory not split (inside a granted one) is not possible: every
// directory above a hidden path is split. And a path whose directory did
// not change still names the inode the descriptor holds.
type readRules struct {
	mu     sync.Mutex
	cur    *readGrants
	hidden []string
	ahead  ahead // the next command's ruleset (ahead_linux.go)
}

// readGrants is one computation.
type readGrants struct {
	grants   []grant
	listable []string
	stamps   []dirStamp
	// stable: no directory changed within its file system's timestamp
	// granularity of being read (racy); a racy one is read again.
	stable bool
	fds    []int // O_PATH, one per grant then one per listable; nil: too many to hold
}

// maxHeldRules bounds the descriptors held open; above it the grants are
// kept (no walk) but opened per command.
const maxHeldRules = 8192

// dirStamp is a split directory as it was when listed.
type dirStamp struct {
	path         string
	dev, ino     uint64
	mode         uint32
	mtime, ctime unix.Timespec
}

func stampOf(path string, st *unix.Stat_t) dirStamp {
	return dirStamp{path: path, dev: st.Dev, ino: st.Ino, mode: st.Mode, mtime: st.Mtim, ctime: st.Ctim}
}

func (d dirStamp) unchanged() bool {
	var st unix.Stat_t
	return unix.Lstat(d.path, &st) == nil && stampOf(d.path, &st) == d
}

// addTo adds the read rules to a ruleset (handled: its file rights),
// computing them again first when they may have changed. r.mu is held.
func (r *readRules) addTo(ruleset int, handled uint64) error {
	g := r.cur
	if g == nil || !g.stable || !g.unchanged() {
		if g != nil {
			g.close()
		}
		g = computeReadGrants(r.hidden)
		r.cur = g
	}
	for i, gr := range g.grants {
		access := uint64(rightsReadFile)
		if gr.Dir {
			access = rightsRead
		}
		if err := g.add(ruleset, i, gr.Path, access&handled); err != nil {
			return err
		}
	}
	for i, p := range g.listable {
		if err := g.add(ruleset, len(g.grants)+i, p, ll.AccessFSReadDir&handled); err != nil {
			return err
		}
	}
	return nil
}

// close releases the held descriptors and the ruleset built ahead, once
// the build under way, if any, has ended.
func (r *readRules) close() {
	r.stopBuilds()
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cur != nil {
		r.cur.close()
		r.cur = nil
	}
}

func (g *readGrants) unchanged() bool {
	for _, d := range g.stamps {
		if !d.unchanged() {
			return false
		}
	}
	return true
}

// add grants access on the i-th path: through its held descriptor, else
// opened now. A path gone since is skipped, as go-landlock's
// IgnoreIfMissing does.
func (g *readGrants) add(ruleset, i int, path string, access uint64) error {
	if access == 0 {
		return nil
	}
	fd := -1
	if g.fds != nil {
		fd = g.fds[i]
	} else {
		var err error
		if fd, err = unix.Open(path, unix.O_PATH|unix.O_CLOEXEC, 0); err != nil {
			return nil
		}
		defer unix.Close(fd)
	}
	if fd < 0 {
		return nil
	}
	attr := ll.PathBeneathAttr{AllowedAccess: access, ParentFd: fd}
	if err := ll.LandlockAddPathBeneathRule(ruleset, &attr, 0); err != nil {
		return &os.PathError{Op: "landlock: granting", Path: path, Err: err}
	}
	return nil
}

func (g *readGrants) close() {
	for _, fd := range g.fds {
		if fd >= 0 {
			_ = unix.Close(fd)
		}
	}
	g.fds = nil
}

// computeReadGrants walks as cover does, stamping each directory it
// splits before listing it, then opens the granted paths.
func computeReadGrants(hidden []string) *readGrants {
	g := &readGrants{stable: true}
	g.grants, g.listable = coverStamped("/", hidden, g.stamp)
	if n := len(g.grants) + len(g.listable); n <= maxHeldRules {
		g.fds = make([]int, 0, n)
		for _, p := range slices.Concat(grantPaths(g.grants), g.listable) {
			fd, err := unix.Open(p, unix.O_PATH|unix.O_CLOEXEC, 0)
			if err != nil {
				fd = -1
			}
			g.fds = append(g.fds, fd)
		}
	}
	return g
}

// stamp records a directory about to be listed; one changed too recently
// to tell a later change by its times makes the grants racy.
func (g *readGrants) stamp(dir string) {
	var st unix.Stat_t
	if err := unix.Lstat(dir, &st); err != nil {
		g.stable = false
		return
	}
	d := stampOf(dir, &st)
	g.stamps = append(g.stamps, d)
	if racy(dir, d) {
		g.stable = false
	}
}

// racy reports whether a change to dir right after it was read could keep
// the times read: on file systems with nanosecond times (the usual local
// ones) when the last change is within the current tick of the kernel's
// coarse clock, the one file times come from; elsewhere (network file
// systems, FAT, unknown) within two seconds.
func racy(dir string, d dirStamp) bool {
	var now unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_REALTIME_COARSE, &now); err != nil {
		return true
	}
	latest := max(d.mtime.Nano(), d.ctime.Nano())
	var fs unix.Statfs_t
	if unix.Statfs(dir, &fs) != nil {
		return true
	}
	switch uint32(fs.Type) {
	case unix.EXT4_SUPER_MAGIC, unix.XFS_SUPER_MAGIC, unix.BTRFS_SUPER_MAGIC, unix.TMPFS_MAGIC,
		unix.OVERLAYFS_SUPER_MAGIC, unix.F2FS_SUPER_MAGIC, unix.BCACHEFS_SUPER_MAGIC:
		return latest >= now.Nano()-int64(10e6) // a tick is at most 10 ms (HZ=100)
	}
	return latest >= now.Nano()-int64(2e9)
}

func grantPaths(gs []grant) []string {
	out := make([]string, len(gs))
	for i, g := range gs {
		out[i] = g.Path
	}
	return out
}

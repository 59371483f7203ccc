package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"unsafe"

	"golang.org/x/sys/unix"
)

// tripwire guards, while one namespaced command runs, the protected paths
// a read-only mount cannot hold: those that do not exist and cannot be
// created empty (a git dir's commondir: an empty one would break git, a
// planted one redirects the repository to a config that runs code at the
// user's next git status; a workspace's .git where there is no
// repository; an included config file or a hook manager's config not
// written yet), and symlinks (.git/hooks -> ../githooks: a mount lands on
// the target, the link itself could be replaced). A mount needs an
// existing file, and the git dir itself must stay writable for git add
// and commit, so those are watched instead (inotify, set up before the
// command starts, so that nothing is missed): the moment one changes, the
// command and everything in its PID namespace is killed, and the path is
// put back as it was (what the command created removed, the link made
// again), once as it is seen and again once the last process of the
// command is gone. What remains is the time between the change and its
// undoing, microseconds, during which a git run outside could read it.
type tripwire struct {
	fd    int                       // the inotify instance
	names map[int32]map[string]bool // per watch descriptor, the names watched
	// patterns are, per watch descriptor, the patterns no new name may
	// match (*.code-workspace).
	patterns map[int32][]string
	// missing are, per watch descriptor, the names that must stay
	// missing, and dirs the watched directories: a name that appears is
	// this command's trip even when another command's tripwire, beside
	// it, already took it away (which one made it, inotify cannot say:
	// every command watching it is stopped).
	missing  map[int32]map[string]bool
	dirs     map[int32]string
	reported map[string]bool
	paths    []tripPath
	trips    *trips
	// output is a copy of the command's output pipe, held until the last
	// sweep: whoever reads the command's output to its end (the process
	// runner) then sees the end only once every trip is undone and
	// written into that output (tripMarker), even when the command ended
	// by itself first, and a trip is told with its own command's output,
	// not another's that runs beside it. Without one (stdout is no file)
	// trips are recorded in the sandbox's trips.
	output *os.File
}

// newTripwire watches the directories of paths (those whose directory
// exists: a missing directory's path cannot appear without the directory
// being created first, which the guard of its git dir or the Landlock
// split covers). nil when there is nothing to watch.
func newTripwire(paths []tripPath, t *trips) (*tripwire, error) {
	if len(paths) == 0 {
		return nil, nil
	}
	fd, err := unix.InotifyInit1(unix.IN_CLOEXEC | unix.IN_NONBLOCK)
	if err != nil {
		return nil, err
	}
	tw := &tripwire{fd: fd, names: map[int32]map[string]bool{}, trips: t,
		missing: map[int32]map[string]bool{}, dirs: map[int32]string{}, reported: map[string]bool{}}
	for _, p := range paths {
		mask := uint32(unix.IN_CREATE | unix.IN_MOVED_TO | unix.IN_DELETE | unix.IN_MOVED_FROM | unix.IN_ONLYDIR | unix.IN_DONT_FOLLOW)
		wd, err := unix.InotifyAddWatch(fd, filepath.Dir(p.Path), mask)
		if err != nil {
			continue // the directory is gone: nothing can appear in it
		}
		if tw.names[int32(wd)] == nil {
			tw.names[int32(wd)] = map[string]bool{}
			tw.missing[int32(wd)] = map[string]bool{}
			tw.dirs[int32(wd)] = filepath.Dir(p.Path)
		}
		if p.Pattern {
			if tw.patterns == nil {
				tw.patterns = map[int32][]string{}
			}
			tw.patterns[int32(wd)] = append(tw.patterns[int32(wd)], filepath.Base(p.Path))
			p.before = matchingNames(p.Path)
		} else {
			tw.names[int32(wd)][filepath.Base(p.Path)] = true
			tw.missing[int32(wd)][filepath.Base(p.Path)] = p.Link == ""
		}
		tw.paths = append(tw.paths, p)
	}
	return tw, nil
}

// arm starts watching for cmd once it has started (release is the
// caller's, run first). The goroutine belongs to the command: it ends
// when the command's first process (and with it its PID namespace) is
// gone. Without a started command it only closes the watch.
func (tw *tripwire) arm(cmd *exec.Cmd, release func()) func() {
	return func() {
		release()
		if cmd.Process == nil {
			_ = unix.Close(tw.fd)
			return
		}
		tw.output = holdOutput(cmd)
		pidfd, err := unix.PidfdOpen(cmd.Process.Pid, 0)
		if err != nil {
			if tw.output != nil {
				_ = tw.output.Close()
			}
			// Not reaped before this returns (the caller waits after), so
			// this is a kernel without pidfds: fail closed.
			_ = cmd.Process.Kill()
			_ = unix.Close(tw.fd)
			return
		}
		go tw.watch(pidfd, cmd.Process.Pid)
	}
}

// watch reads events until the command is gone, then sweeps once more.
// A trip kills the command's first process (under a PID namespace the
// kernel then ends everything in it) and, while it has not ended, its
// process group (without one).
func (tw *tripwire) watch(pidfd, pgid int) {
	defer unix.Close(tw.fd)
	defer unix.Close(pidfd)
	fds := []unix.PollFd{{Fd: int32(tw.fd), Events: unix.POLLIN}, {Fd: int32(pidfd), Events: unix.POLLIN}}
	for {
		if _, err := unix.Poll(fds, -1); err != nil && err != unix.EINTR {
			break
		}
		if tw.read() {
			if fds[1].Revents == 0 {
				_ = unix.Kill(-pgid, unix.SIGKILL)
			}
			_ = unix.PidfdSendSignal(pidfd, unix.SIGKILL, nil, 0)
		}
		if fds[1].Revents != 0 {
			break
		}
	}
	tw.read()
	tw.sweep()
	if tw.output != nil {
		_ = tw.output.Close()
	}
}

// tripped tells of a path put back: in the command's output when held,
// else in the sandbox's record.
func (tw *tripwire) tripped(p string) {
	if tw.reported[p] {
		return
	}
	tw.reported[p] = true
	if tw.output != nil {
		if _, err := tw.output.WriteString("\n" + tripMarker + p + "\n"); err == nil {
			return
		}
	}
	tw.trips.add(p)
}

// holdOutput duplicates the command's stdout when it is a file (a pipe),
// nil otherwise.
func holdOutput(cmd *exec.Cmd) *os.File {
	f, ok := cmd.Stdout.(*os.File)
	if !ok || f == nil {
		return nil
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return nil
	}
	var dup *os.File
	_ = rc.Control(func(fd uintptr) {
		if nfd, err := unix.FcntlInt(fd, unix.F_DUPFD_CLOEXEC, 0); err == nil {
			dup = os.NewFile(uintptr(nfd), "command output")
		}
	})
	return dup
}

// read handles the queued events; true when a watched name appeared (or
// the queue overflowed, when a sweep says what is there).
func (tw *tripwire) read() bool {
	tripped := false
	buf := make([]byte, 64*(unix.SizeofInotifyEvent+unix.NAME_MAX+1))
	for {
		n, err := unix.Read(tw.fd, buf)
		if n <= 0 || err != nil {
			return tripped
		}
		for off := 0; off+unix.SizeofInotifyEvent <= n; {
			ev := (*unix.InotifyEvent)(unsafe.Pointer(&buf[off]))
			nameBytes := buf[off+unix.SizeofInotifyEvent : off+unix.SizeofInotifyEvent+int(ev.Len)]
			off += unix.SizeofInotifyEvent + int(ev.Len)
			if ev.Mask&unix.IN_Q_OVERFLOW != 0 {
				tripped = tw.sweep() || tripped
				continue
			}
			name := cString(nameBytes)
			pattern := matchesAny(tw.patterns[ev.Wd], name)
			if !tw.names[ev.Wd][name] && !pattern {
				continue
			}
			if ev.Mask&(unix.IN_CREATE|unix.IN_MOVED_TO) != 0 && (tw.missing[ev.Wd][name] || pattern) {
				tw.tripped(filepath.Join(tw.dirs[ev.Wd], name))
				tripped = true
			}
			tripped = tw.sweep() || tripped
		}
	}
}

// sweep puts back every watched path the command changed; true when one
// was.
func (tw *tripwire) sweep() bool {
	found := false
	for _, p := range tw.paths {
		if p.Pattern {
			for _, name := range matchingNames(p.Path) {
				if !slices.Contains(p.before, name) {
					found = true
					abs := filepath.Join(filepath.Dir(p.Path), name)
					tw.tripped(abs)
					_ = os.RemoveAll(abs)
				}
			}
			continue
		}
		_, err := os.Lstat(p.Path)
		if p.Link == "" && err != nil {
			continue // still missing
		}
		if link, err := os.Readlink(p.Path); p.Link != "" && err == nil && link == p.Link {
			continue // still the same link
		}
		found = true
		tw.tripped(p.Path)
		_ = os.RemoveAll(p.Path) // a link or what the command made: never followed
		if p.Link != "" {
			_ = os.Symlink(p.Link, p.Path)
		}
	}
	return found
}

// matchingNames are the names in pattern's directory its last part
// matches.
func matchingNames(pattern string) []string {
	entries, _ := os.ReadDir(filepath.Dir(pattern))
	var out []string
	for _, e := range entries {
		if ok, _ := filepath.Match(filepath.Base(pattern), e.Name()); ok {
			out = append(out, e.Name())
		}
	}
	return out
}

func matchesAny(patterns []string, name string) bool {
	for _, p := range patterns {
		if ok, _ := filepath.Match(p, name); ok {
			return true
		}
	}
	return false
}

// cString is a NUL-padded inotify name as a string.
func cString(b []byte) string {
	for i, c := range b {
		if c == 0 {
			return string(b[:i])
		}
	}
	return string(b)
}

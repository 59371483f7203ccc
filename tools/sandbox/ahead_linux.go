package sandbox

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"

	"github.com/landlock-lsm/go-landlock/landlock"
	"golang.org/x/sys/unix"
)

// A command's Landlock ruleset is built before the command asks for it:
// with a home of 1,000 entries its read grants are about a thousand
// landlock_add_rule calls, the larger part of a command's start that
// still grew with the home once the grants were kept (readRules). The
// launcher adds its own mounts' rules (/proc, /dev/shm) to the ruleset
// it gets, so one ruleset serves one command: once a command's launcher
// has ended, the next command's ruleset is built from the same rules on
// an owned goroutine (not while the command starts: on a loaded machine
// the build took the CPU from it, and bench/sandbox showed it).
//
// The ruleset built ahead is taken only when building one now would give
// the same rules: Landlock rules hold inodes, so it is the same when the
// policy's rules are the same (key), the read grants are the ones kept
// and still valid (readGrants.unchanged, as for a ruleset built now), and
// every path of the other rules (write grants, devices) names the inode
// it named when the ruleset was built, or is still missing. Otherwise it
// is dropped and the command's ruleset is built as before.

// ahead is the state of the ruleset built ahead; readRules.mu guards it.
type ahead struct {
	spare    *spareRuleset
	closed   bool
	wake     *os.File // an eventfd, readable once closed: ends waitExit
	builders sync.WaitGroup
}

// spareRuleset is a ruleset built ahead, with what it was built from.
type spareRuleset struct {
	key    string
	grants *readGrants
	paths  []pathID
	fd     int
	flags  uint32
}

// pathID is what a path named when a ruleset was built.
type pathID struct {
	path     string
	present  bool
	dev, ino uint64
}

// identify stats paths as go-landlock opens them (following symlinks).
func identify(paths []string) []pathID {
	ids := make([]pathID, len(paths))
	for i, p := range paths {
		ids[i].path = p
		var st unix.Stat_t
		if unix.Stat(p, &st) == nil {
			ids[i].present, ids[i].dev, ids[i].ino = true, st.Dev, st.Ino
		}
	}
	return ids
}

// same reports whether every path still names what it named.
func same(ids []pathID) bool {
	for _, id := range ids {
		var st unix.Stat_t
		present := unix.Stat(id.path, &st) == nil
		if present != id.present || present && (st.Dev != id.dev || st.Ino != id.ino) {
			return false
		}
	}
	return true
}

// rulesKey is what, besides paths' inodes and the read grants, makes a
// policy's ruleset: the handled rights and the rules of rulesFor.
func rulesKey(p launchPolicy, handled uint64) string {
	var b strings.Builder
	fmt.Fprintf(&b, "fs=%d bind=%t tcp=%t", handled, p.DenyBind, p.DenyTCP)
	for _, g := range p.Write {
		b.WriteString("\x00w=" + strconv.FormatBool(g.Dir) + g.Path)
	}
	for _, port := range p.ConnectPorts {
		b.WriteString("\x00p=" + strconv.Itoa(port))
	}
	for _, d := range p.Devices {
		b.WriteString("\x00d=" + d)
	}
	return b.String()
}

// rulePaths are the paths of rulesFor's rules.
func rulePaths(p launchPolicy) []string {
	paths := make([]string, 0, len(p.Write)+len(p.Devices))
	for _, g := range p.Write {
		paths = append(paths, g.Path)
	}
	return append(paths, p.Devices...)
}

// ruleset returns a Landlock ruleset (and its restrict flags) for policy
// p with the read grants: the one built ahead when it is still what
// building one now would give, else one built now; and what the next
// command's ruleset is to be built from (buildAfter).
func (r *readRules) ruleset(p launchPolicy, handled uint64) (fd int, flags uint32, next nextRuleset, err error) {
	next = nextRuleset{key: rulesKey(p, handled), paths: rulePaths(p), handled: handled}
	next.cfg, next.rules = rulesFor(p)
	r.mu.Lock()
	defer r.mu.Unlock()
	if sp := r.ahead.spare; sp != nil {
		r.ahead.spare = nil
		if sp.key == next.key && sp.grants == r.cur && sp.grants.stable && sp.grants.unchanged() && same(sp.paths) {
			return sp.fd, sp.flags, next, nil
		}
		_ = unix.Close(sp.fd)
	}
	if fd, flags, err = r.build(next.cfg, next.rules, handled); err != nil {
		return -1, 0, next, err
	}
	return fd, flags, next, nil
}

// build builds a ruleset now. r.mu is held.
func (r *readRules) build(cfg landlock.Config, rules []landlock.Rule, handled uint64) (fd int, flags uint32, err error) {
	fd, flags, err = cfg.BestEffort().NewRulesetFD(rules...)
	if err != nil {
		return -1, 0, fmt.Errorf("sandbox: landlock ruleset: %w", err)
	}
	if fd < 0 {
		return -1, 0, errors.New("sandbox: landlock ruleset: nothing to enforce (no Landlock support)")
	}
	if err := r.addTo(fd, handled); err != nil {
		_ = unix.Close(fd)
		return -1, 0, fmt.Errorf("sandbox: landlock ruleset: %w", err)
	}
	return fd, flags, nil
}

// nextRuleset is what the next command's ruleset is built from: the
// rules of the command before it.
type nextRuleset struct {
	key     string
	cfg     landlock.Config
	rules   []landlock.Rule
	paths   []string
	handled uint64
}

// buildAfter builds the next command's ruleset once process pid (a
// command's launcher, started and not yet waited for) has ended, on a
// goroutine Close ends: built while the command starts, it would take
// the CPU from it. pid 0: at once. The build holds r.mu, so a command
// that asks meanwhile waits for it and takes it. A build that fails
// leaves no spare: the next command builds its own, and says why.
//
// used (nil: none) is the daemon's copy of the ended command's ruleset,
// closed once the command ended rather than once it started: the last
// close frees the ruleset's rules, one per read grant, which the launcher
// would otherwise do on the command's way to bash.
func (r *readRules) buildAfter(pid int, next nextRuleset, used *os.File) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ahead.closed || next.key == "" || !r.ahead.watching() {
		closeFile(used)
		return
	}
	wake := int(r.ahead.wake.Fd())
	r.ahead.builders.Add(1)
	go func() {
		defer r.ahead.builders.Done()
		ended := pid <= 0 || waitExit(pid, wake)
		closeFile(used)
		if !ended {
			return
		}
		r.mu.Lock()
		defer r.mu.Unlock()
		if r.ahead.closed || r.ahead.spare != nil {
			return
		}
		ids := identify(next.paths)
		fd, flags, err := r.build(next.cfg, next.rules, next.handled)
		if err != nil {
			return
		}
		if !same(ids) { // a path changed while the ruleset was built
			_ = unix.Close(fd)
			return
		}
		r.ahead.spare = &spareRuleset{key: next.key, grants: r.cur, paths: ids, fd: fd, flags: flags}
	}()
}

// watching creates the eventfd that ends waitExit, unless it is there;
// false: it could not be created. readRules.mu is held.
func (a *ahead) watching() bool {
	if a.wake == nil {
		fd, err := unix.Eventfd(0, unix.EFD_CLOEXEC)
		if err != nil {
			return false
		}
		a.wake = os.NewFile(uintptr(fd), "sandbox-ahead-wake")
	}
	return true
}

func closeFile(f *os.File) {
	if f != nil {
		_ = f.Close()
	}
}

// waitExit waits until process pid has ended (true) or wake is readable
// (Close: false). A pid that cannot be watched counts as ended.
func waitExit(pid, wake int) bool {
	pidfd, err := unix.PidfdOpen(pid, 0)
	if err != nil {
		return true
	}
	defer unix.Close(pidfd)
	fds := []unix.PollFd{{Fd: int32(pidfd), Events: unix.POLLIN}, {Fd: int32(wake), Events: unix.POLLIN}}
	for {
		if _, err := unix.Poll(fds, -1); err != unix.EINTR {
			return fds[1].Revents == 0
		}
	}
}

// stopBuilds ends the builds waiting or under way and releases the
// ruleset built ahead. r.mu is not held.
func (r *readRules) stopBuilds() {
	r.mu.Lock()
	r.ahead.closed = true
	r.dropSpare()
	wake := r.ahead.wake
	r.mu.Unlock()
	if wake != nil {
		_, _ = wake.Write([]byte{1, 0, 0, 0, 0, 0, 0, 0}) // eventfd: readable from now on
	}
	r.ahead.builders.Wait()
	if wake != nil {
		_ = wake.Close()
	}
}

// dropSpare closes the ruleset built ahead, if any. r.mu is held.
func (r *readRules) dropSpare() {
	if sp := r.ahead.spare; sp != nil {
		_ = unix.Close(sp.fd)
		r.ahead.spare = nil
	}
}

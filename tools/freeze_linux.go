package tools

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// freezeLimit bounds how long stopping the commands may take: a process
// stuck in an uninterruptible sleep (a hung network file system) fails the
// freeze, and the edit with it, instead of holding the agent.
const freezeLimit = 2 * time.Second

// The pauses between looks at the processes' states while they stop.
const (
	freezeFirstPause = 20 * time.Microsecond
	freezeMaxPause   = time.Millisecond
)

// processHandle pins a process: a pidfd, so that a signal never reaches a
// later process that got the pid (pid_max may be as low as 32768). fd is
// -1 where pidfd_open is missing (Linux < 5.3, never under the sandbox,
// which needs Landlock, 5.13): the pid is used then.
type processHandle struct {
	pid, fd int
}

func openProcess(pid int) processHandle {
	fd, err := unix.PidfdOpen(pid, 0)
	if err != nil {
		fd = -1
	}
	return processHandle{pid: pid, fd: fd}
}

func (h processHandle) signal(sig unix.Signal) error {
	if h.fd < 0 {
		return unix.Kill(h.pid, sig)
	}
	return unix.PidfdSendSignal(h.fd, sig, nil, 0)
}

func (h processHandle) release() {
	if h.fd >= 0 {
		_ = unix.Close(h.fd)
	}
}

// frozenProcess is one process of a command's tree seen by a freeze.
type frozenProcess struct {
	handle processHandle
	start  uint64 // its start time: with the pid, its identity
	borrow bool   // the handle is the command root's: not ours to release
}

// stoppedSet is what a freeze stopped, to continue at thaw.
type stoppedSet struct {
	byPID map[int]*frozenProcess
	// groups are the process groups stopped at once at the start (a
	// command's root leads its own): a member outside the tree (a child
	// the root made its parent's with CLONE_PARENT) is continued too.
	groups []int
}

// resume continues every process the freeze stopped. A process the
// command had stopped itself is continued too: a freeze cannot tell its
// own stop from one that was there before (job control is off in the
// non-interactive bash of a command, so this is rare).
func (s *stoppedSet) resume() {
	for _, pgid := range s.groups {
		_ = unix.Kill(-pgid, unix.SIGCONT)
	}
	for _, p := range s.byPID {
		_ = p.handle.signal(unix.SIGCONT)
		if !p.borrow {
			p.handle.release()
		}
	}
	s.byPID, s.groups = nil, nil
}

// stopTrees stops every process descending from the roots and returns
// once all of them are stopped at the same time: a process that was still
// running could have continued (SIGCONT) one already stopped, or forked,
// so the processes are listed again after each round of signals until a
// round finds nothing new and nothing running.
//
// Each root's process group is stopped first, with one signal: usually
// the whole command, which then stops competing for the CPU with the
// listing. The tree is read from each process's parent in
// /proc/<pid>/stat (a kernel may lack /proc/<pid>/task/<tid>/children).
// Under a PID namespace every process of a command descends from its
// root, the namespace's init; without one (the Landlock-only fallback),
// the launcher makes the root a child subreaper, so orphans of a
// daemonizing `( cmd & )` stay below it while the command runs.
func stopTrees(ctx context.Context, roots []*commandRoot) (*stoppedSet, error) {
	set := &stoppedSet{byPID: map[int]*frozenProcess{}}
	if len(roots) == 0 {
		return set, nil
	}
	for _, r := range roots {
		// While the root is not reaped its pid is its group's id and no
		// one else's; a group outlives its leader only with members, and
		// the kernel reuses no pid a group still uses.
		if r.handle.signal(0) == nil && unix.Kill(-r.pid, unix.SIGSTOP) == nil {
			set.groups = append(set.groups, r.pid)
		}
	}
	ctx, cancel := context.WithTimeout(ctx, freezeLimit)
	defer cancel()
	pause := freezeFirstPause
	for {
		settled, unsettled, err := set.round(roots)
		if err == nil && settled {
			return set, nil
		}
		if err == nil {
			err = ctx.Err()
		}
		if err != nil {
			set.resume()
			if unsettled != "" {
				return nil, fmt.Errorf("pausing the running commands: %w (%s)", err, unsettled)
			}
			return nil, fmt.Errorf("pausing the running commands: %w", err)
		}
		// The signals are on their way: the processes reach their stop
		// when next scheduled. Sleeping (not spinning) leaves them the
		// CPU; nothing announces a stop to a process that is not the
		// parent, so the state is looked at again, a little later each
		// time.
		time.Sleep(pause)
		pause = min(2*pause, freezeMaxPause)
	}
}

// round lists the trees, stops what runs, and reports whether every
// process was already known and stopped; unsettled names one that was not.
func (s *stoppedSet) round(roots []*commandRoot) (settled bool, unsettled string, err error) {
	procs, err := listProcesses()
	if err != nil {
		return false, "", err
	}
	children := map[int][]procStat{}
	byPID := make(map[int]procStat, len(procs))
	for _, p := range procs {
		children[p.ppid] = append(children[p.ppid], p)
		byPID[p.pid] = p
	}
	settled = true
	var queue []procStat
	for _, r := range roots {
		// A root that is gone (reaped) has a pid that may be someone
		// else's by now: its handle says.
		if st, ok := byPID[r.pid]; ok && r.handle.signal(0) == nil {
			if _, known := s.byPID[r.pid]; !known {
				s.byPID[r.pid] = &frozenProcess{handle: r.handle, start: st.start, borrow: true}
				settled = false
			}
			queue = append(queue, st)
		}
	}
	for len(queue) > 0 {
		st := queue[0]
		queue = queue[1:]
		p, known := s.byPID[st.pid]
		if known && p.start != st.start {
			continue // a dead process's pid, taken by another: not of the tree
		}
		if !known {
			h := openProcess(st.pid)
			if again, err := readStat(st.pid); err != nil || again.start != st.start {
				h.release() // gone, or the pid is someone else's now
				continue
			}
			p = &frozenProcess{handle: h, start: st.start}
			s.byPID[st.pid] = p
			settled = false
		}
		queue = append(queue, children[st.pid]...)
		if stoppedState(st.state) {
			if known && !threadsStopped(st.pid) {
				settled, unsettled = false, describe(st)
			}
			continue
		}
		// Pending, the stop takes the process before it runs any more of
		// its own code, whatever system call it is in.
		_ = p.handle.signal(unix.SIGSTOP)
		if st.state == 'D' && inVfork(st.pid) {
			// A vfork parent waits in the kernel for its child, stopped,
			// to exec: it runs nothing until we continue the child.
			continue
		}
		settled, unsettled = false, describe(st)
	}
	return settled, unsettled, nil
}

// stoppedState: stopped (T), stopped by a tracer (t), or dead (Z, X).
func stoppedState(state byte) bool {
	return state == 'T' || state == 't' || state == 'Z' || state == 'X'
}

func describe(st procStat) string {
	return fmt.Sprintf("process %d in state %c", st.pid, st.state)
}

// threadsStopped reports whether every thread of pid has stopped: the
// process's state is its main thread's, and the others reach the group
// stop on their own.
func threadsStopped(pid int) bool {
	dir := "/proc/" + strconv.Itoa(pid) + "/task"
	tids, err := os.ReadDir(dir)
	if err != nil {
		return errors.Is(err, os.ErrNotExist) // gone: nothing runs
	}
	for _, t := range tids {
		data, err := os.ReadFile(dir + "/" + t.Name() + "/stat")
		if err != nil {
			continue // the thread ended
		}
		st, err := parseStat(string(data))
		if err != nil || !stoppedState(st.state) {
			return false
		}
	}
	return true
}

// inVfork reports whether pid is blocked in the clone (or vfork) that
// started a child sharing its memory: /proc/<pid>/syscall names the call.
func inVfork(pid int) bool {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/syscall")
	if err != nil {
		return false
	}
	nr, err := strconv.ParseInt(strings.Fields(string(data) + " x")[0], 10, 64)
	if err != nil {
		return false
	}
	for _, call := range vforkCalls {
		if uintptr(nr) == call {
			return true
		}
	}
	return false
}

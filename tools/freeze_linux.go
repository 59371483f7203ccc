package tools

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// freezeLimit bounds how long stopping the commands may take: a process
// stuck in an uninterruptible sleep (a hung network file system) fails the
// freeze, and the edit with it, instead of holding the agent.
const freezeLimit = 2 * time.Second

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
	ours   bool   // we sent SIGSTOP (a process the command had stopped itself stays stopped)
	borrow bool   // the handle is the command root's: not ours to release
}

// stoppedSet is what a freeze stopped, to continue at thaw.
type stoppedSet struct {
	byPID map[int]*frozenProcess
}

// resume continues every process the freeze stopped.
func (s *stoppedSet) resume() {
	for _, p := range s.byPID {
		if p.ours {
			_ = p.handle.signal(unix.SIGCONT)
		}
		if !p.borrow {
			p.handle.release()
		}
	}
	s.byPID = nil
}

// stopTrees stops every process descending from the roots and returns
// once all of them are stopped at the same time: a process that was still
// running could have continued (SIGCONT) one already stopped, or forked,
// so the processes are listed again after each round of signals until a
// round finds nothing new and nothing running.
//
// The tree is read from each process's parent in /proc/<pid>/stat (this
// kernel may lack /proc/<pid>/task/<tid>/children). Under a PID namespace
// every process of a command descends from its root, the namespace's init;
// without one (the Landlock-only fallback), the launcher makes the root a
// child subreaper, so orphans of a daemonizing `( cmd & )` stay below it
// while the command runs.
func stopTrees(ctx context.Context, roots []*commandRoot) (*stoppedSet, error) {
	set := &stoppedSet{byPID: map[int]*frozenProcess{}}
	if len(roots) == 0 {
		return set, nil
	}
	ctx, cancel := context.WithTimeout(ctx, freezeLimit)
	defer cancel()
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
		// The signals are on their way: let the stopped processes get to
		// their stop before looking again.
		runtime.Gosched()
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
	for _, p := range procs {
		children[p.ppid] = append(children[p.ppid], p)
	}
	byPID := make(map[int]procStat, len(procs))
	for _, p := range procs {
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
			}
			queue = append(queue, st)
		}
	}
	for len(queue) > 0 {
		st := queue[0]
		queue = append(queue[1:], children[st.pid]...)
		p, known := s.byPID[st.pid]
		if known && p.start != st.start {
			continue // a dead process's pid, taken by another
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
		if stoppedState(st.state) {
			if known && !threadsStopped(st.pid) {
				settled, unsettled = false, describe(st)
			}
			continue
		}
		if st.state == 'D' && inVfork(st.pid) {
			// A vfork parent waits for its child, stopped, to exec: it
			// runs nothing of its own until we continue the child.
			continue
		}
		settled, unsettled = false, describe(st)
		if p.handle.signal(unix.SIGSTOP) == nil {
			p.ours = true
		}
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

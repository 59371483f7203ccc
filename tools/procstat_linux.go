package tools

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// procStat is what a freeze reads of a process in /proc/<pid>/stat.
type procStat struct {
	pid, ppid int
	state     byte
	start     uint64 // clock ticks after boot: with the pid, the process's identity
}

// listProcesses reads the stat of every process the daemon's /proc shows.
// Processes that end while it reads are left out. (One buffer for all:
// on a machine with thousands of processes this is most of a freeze.)
func listProcesses() ([]procStat, error) {
	dir, err := os.Open("/proc")
	if err != nil {
		return nil, err
	}
	names, err := dir.Readdirnames(-1)
	dir.Close()
	if err != nil {
		return nil, err
	}
	procs := make([]procStat, 0, len(names))
	buf := make([]byte, 1024)
	for _, name := range names {
		pid, err := strconv.Atoi(name)
		if err != nil {
			continue // not a process
		}
		st, err := readStatInto(buf, pid)
		if err != nil {
			continue
		}
		procs = append(procs, st)
	}
	return procs, nil
}

func readStat(pid int) (procStat, error) {
	return readStatInto(make([]byte, 1024), pid)
}

// readStatInto reads /proc/<pid>/stat into buf (1 KiB holds it: comm is
// at most 64 bytes, the 52 numbers after it at most 20 digits each).
func readStatInto(buf []byte, pid int) (procStat, error) {
	fd, err := unix.Open("/proc/"+strconv.Itoa(pid)+"/stat", unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return procStat{}, err
	}
	n, err := unix.Read(fd, buf)
	unix.Close(fd)
	if err != nil {
		return procStat{}, err
	}
	return parseStat(string(buf[:n]))
}

// parseStat reads "pid (comm) state ppid ... starttime ..." (proc(5)).
// comm may hold spaces and parentheses: the fields start after the last ')'.
func parseStat(s string) (procStat, error) {
	open, end := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
	if open < 1 || end < open {
		return procStat{}, errors.New("malformed /proc stat")
	}
	pid, err := strconv.Atoi(strings.TrimSpace(s[:open]))
	if err != nil {
		return procStat{}, fmt.Errorf("malformed /proc stat: %w", err)
	}
	// After comm: state (field 3), ppid (4), ... starttime (22).
	f := strings.Fields(s[end+1:])
	if len(f) < 20 || len(f[0]) != 1 {
		return procStat{}, errors.New("malformed /proc stat")
	}
	ppid, err := strconv.Atoi(f[1])
	if err != nil {
		return procStat{}, fmt.Errorf("malformed /proc stat: %w", err)
	}
	start, err := strconv.ParseUint(f[19], 10, 64)
	if err != nil {
		return procStat{}, fmt.Errorf("malformed /proc stat: %w", err)
	}
	return procStat{pid: pid, ppid: ppid, state: f[0][0], start: start}, nil
}

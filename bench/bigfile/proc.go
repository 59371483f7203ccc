package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// cpuOf is a live process's CPU time: the sum of its threads' time on CPU
// from /proc/<pid>/task/*/schedstat (nanoseconds; /proc/<pid>/stat counts
// in 10 ms ticks, too coarse for a 1 MB edit). A Go process keeps its
// threads, so none of the time is lost with an exited thread.
func cpuOf(pid int) (time.Duration, error) {
	tasks, err := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/schedstat", pid))
	if err != nil || len(tasks) == 0 {
		return 0, fmt.Errorf("no threads of %d in /proc", pid)
	}
	var total int64
	for _, t := range tasks {
		b, err := os.ReadFile(t)
		if err != nil {
			continue // the thread exited meanwhile
		}
		f := strings.Fields(string(b))
		if len(f) == 0 {
			continue
		}
		ns, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			return 0, fmt.Errorf("%s: %w", t, err)
		}
		total += ns
	}
	return time.Duration(total), nil
}

// memOf reads a process's resident set (VmRSS) and its peak (VmHWM), bytes.
func memOf(pid int) (rss, hwm int64, err error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		for _, f := range []struct {
			key string
			dst *int64
		}{{"VmRSS:", &rss}, {"VmHWM:", &hwm}} {
			if rest, ok := strings.CutPrefix(line, f.key); ok {
				kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
				if err != nil {
					return 0, 0, fmt.Errorf("%s %q: %w", f.key, rest, err)
				}
				*f.dst = kb * 1024
			}
		}
	}
	if rss == 0 || hwm == 0 {
		return 0, 0, fmt.Errorf("no VmRSS/VmHWM in /proc/%d/status", pid)
	}
	return rss, hwm, nil
}

// resetPeak makes VmHWM start again from the current RSS (clear_refs 5,
// Linux 4.0+), so that the peak read later is the edit's own.
func resetPeak(pid int) error {
	return os.WriteFile(fmt.Sprintf("/proc/%d/clear_refs", pid), []byte("5"), 0)
}

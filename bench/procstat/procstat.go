// Package procstat reads what the benchmarks measure of a live process
// from /proc: its CPU time, which unlike latency on a shared machine
// does not grow with the other processes' load.
package procstat

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// CPUTime is a live process's CPU time: the sum of its threads' time on
// CPU from /proc/<pid>/task/*/schedstat (nanoseconds; /proc/<pid>/stat
// counts in 10 ms ticks, too coarse for one edit). A Go process keeps its
// threads, so none of the time is lost with an exited thread.
func CPUTime(pid int) (time.Duration, error) {
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

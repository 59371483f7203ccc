package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

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

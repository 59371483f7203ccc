//go:build linux

package procenv

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/sys/unix"
)

// block is this process's start-up environment block, opened once. The
// file stays open: after Protect, /proc/self/mem belongs to root and a
// process running as another user could not open it again.
var block struct {
	sync.Mutex
	opened     bool
	err        error
	mem        *os.File
	start, end int64
}

// Protect makes the process non-dumpable, after opening its environment
// block for later Wipes. Call it first thing in main, before any child
// exists or any goroutine could read a secret.
func Protect() error {
	openErr := openBlock()
	if err := unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0); err != nil {
		return errors.Join(openErr, fmt.Errorf("making the process non-dumpable: %w", err))
	}
	return openErr
}

// openBlock reads the block's bounds from /proc/self/stat and opens
// /proc/self/mem; it runs once and remembers its error.
func openBlock() error {
	block.Lock()
	defer block.Unlock()
	if block.opened {
		return block.err
	}
	block.opened = true
	block.start, block.end, block.err = envBounds()
	if block.err != nil {
		return block.err
	}
	block.mem, block.err = os.OpenFile("/proc/self/mem", os.O_RDWR, 0)
	if block.err != nil {
		block.err = fmt.Errorf("opening /proc/self/mem: %w", block.err)
	}
	return block.err
}

// envBounds returns env_start and env_end, fields 50 and 51 (1-based) of
// /proc/self/stat. Field 2, the command name, is in parentheses and may
// hold spaces or parentheses itself: fields are counted after its last ')'.
func envBounds() (start, end int64, err error) {
	stat, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		return 0, 0, fmt.Errorf("reading /proc/self/stat: %w", err)
	}
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, 0, errors.New("/proc/self/stat: no command name")
	}
	fields := strings.Fields(string(stat[i+1:])) // fields[0] is field 3
	const envStart, envEnd = 50 - 3, 51 - 3
	if len(fields) <= envEnd {
		return 0, 0, fmt.Errorf("/proc/self/stat: %d fields, want at least 51", len(fields)+2)
	}
	start, err1 := strconv.ParseInt(fields[envStart], 10, 64)
	end, err2 := strconv.ParseInt(fields[envEnd], 10, 64)
	if err := errors.Join(err1, err2); err != nil || start <= 0 || end < start {
		return 0, 0, fmt.Errorf("/proc/self/stat: bad environment bounds %q..%q: %v", fields[envStart], fields[envEnd], err)
	}
	return start, end, nil
}

// Wipe overwrites, in the start-up environment block, the value of every
// entry whose name is in names (all of them, when a name is there twice)
// with zero bytes. The entry's name stays; its length still shows.
func Wipe(names []string) error {
	if len(names) == 0 {
		return nil
	}
	if err := openBlock(); err != nil {
		return err
	}
	block.Lock()
	defer block.Unlock()
	data, err := readBlock()
	if err != nil {
		return err
	}
	want := make(map[string]bool, len(names))
	for _, name := range names {
		want[name] = true
	}
	var errs []error
	for off := 0; off < len(data); {
		entry := data[off:]
		if j := bytes.IndexByte(entry, 0); j >= 0 {
			entry = entry[:j]
		}
		if eq := bytes.IndexByte(entry, '='); eq > 0 && want[string(entry[:eq])] && eq+1 < len(entry) {
			zeros := make([]byte, len(entry)-eq-1)
			if _, err := block.mem.WriteAt(zeros, block.start+int64(off+eq+1)); err != nil {
				errs = append(errs, fmt.Errorf("wiping %s from the environment block: %w", entry[:eq], err))
			}
		}
		off += len(entry) + 1
	}
	return errors.Join(errs...)
}

// readBlock returns the block's bytes; block is locked and open.
func readBlock() ([]byte, error) {
	data := make([]byte, block.end-block.start)
	if n, err := block.mem.ReadAt(data, block.start); err != nil && n < len(data) {
		return nil, fmt.Errorf("reading the environment block: %w", err)
	}
	return data, nil
}

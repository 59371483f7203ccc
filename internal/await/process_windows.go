package await

import (
	"errors"
	"fmt"

	"golang.org/x/sys/windows"
)

// exited waits up to ms milliseconds (0: not at all) for pid to exit and
// reports whether it has: a process handle is signalled once its process
// has exited, whoever holds other handles to it.
func exited(pid, ms int) (bool, error) {
	h, err := windows.OpenProcess(windows.SYNCHRONIZE, false, uint32(pid))
	if errors.Is(err, windows.ERROR_INVALID_PARAMETER) {
		return true, nil // no such process
	}
	if err != nil {
		return false, fmt.Errorf("OpenProcess %d: %w", pid, err)
	}
	defer windows.CloseHandle(h)
	ev, err := windows.WaitForSingleObject(h, uint32(ms))
	if err != nil {
		return false, fmt.Errorf("wait for process %d: %w", pid, err)
	}
	return ev == windows.WAIT_OBJECT_0, nil
}

package sandbox

import (
	"errors"
	"fmt"
	"os"

	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// The Go launcher's steps that launcher.c has as functions of the same
// names: the user namespace gate, the rules for the command's own mounts,
// the limits.

// waitForGate waits for the daemon to write the user namespace's maps
// (usernsGate): "1" is go, anything else is the reason it could not.
func waitForGate(fd int) error {
	f := os.NewFile(uintptr(fd), "userns-gate")
	defer f.Close()
	buf := make([]byte, 512)
	n := 0
	for n < len(buf) {
		r, err := f.Read(buf[n:])
		n += r
		if err != nil {
			break
		}
	}
	if n >= 1 && buf[0] == '1' {
		return nil
	}
	if n > 1 {
		return errors.New(string(buf[1:n]))
	}
	return errors.New("the agent did not set up the user namespace")
}

// grantMount adds a rule for a file system mounted in the command's own
// namespace: a rule on the host's directory below does not cover a mount
// over it (Landlock skips hidden mount points when it walks up).
func grantMount(ruleset int, path string, access uint64) error {
	fd, err := unix.Open(path, unix.O_PATH|unix.O_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("opening %s: %w", path, err)
	}
	defer unix.Close(fd)
	attr := ll.PathBeneathAttr{AllowedAccess: access, ParentFd: fd}
	if err := ll.LandlockAddPathBeneathRule(ruleset, &attr, 0); err != nil {
		return fmt.Errorf("landlock: granting %s: %w", path, err)
	}
	return nil
}

// privateShm mounts POSIX shared memory of the command's own over
// /dev/shm, gone with the command, at most as large as one process's
// memory limit.
func privateShm(p launchPolicy) error {
	if _, err := os.Stat("/dev/shm"); err != nil {
		return nil
	}
	opts := "mode=1777"
	if p.MaxData > 0 {
		opts += fmt.Sprintf(",size=%d", p.MaxData)
	}
	if err := unix.Mount("tmpfs", "/dev/shm", "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, opts); err != nil {
		return fmt.Errorf("mounting a private /dev/shm: %w", err)
	}
	return grantMount(p.RulesetFD, "/dev/shm", p.HandledFS&^ll.AccessFSIoctlDev)
}

// setLimit sets resource's soft and hard limit to value (0: unchanged),
// or to the hard limit already in force when that is lower.
func setLimit(resource int, value uint64) error {
	if value == 0 {
		return nil
	}
	var cur unix.Rlimit
	if err := unix.Getrlimit(resource, &cur); err == nil && cur.Max != unix.RLIM_INFINITY && cur.Max < value {
		value = cur.Max
	}
	return unix.Setrlimit(resource, &unix.Rlimit{Cur: value, Max: value})
}

// limitPids caps the PID namespace's process numbers (Linux 6.14+ has a
// pid_max per PID namespace): RLIMIT_NPROC does not bind root, whose user
// is the kernel's own whatever the namespace. Where the kernel has no
// per-namespace pid_max, RLIMIT_NPROC is the only limit.
func limitPids(nproc uint64) {
	if nproc == 0 {
		return
	}
	_ = os.WriteFile("/proc/sys/kernel/pid_max", []byte(fmt.Sprint(nproc+1)), 0)
}

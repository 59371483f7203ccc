package sandbox

import (
	"fmt"
	"os"

	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// The Go launcher's steps that launcher.c has as functions of the same
// names: the user namespace's maps, the rules for the command's own
// mounts, the limits.

// selfMap maps an ordinary user's own uid and gid ("uid:gid") into the
// launcher's new user namespace, as self_map in launcher.c does.
func selfMap(ids string) error {
	var uid, gid int
	if _, err := fmt.Sscanf(ids, "%d:%d", &uid, &gid); err != nil {
		return fmt.Errorf("policy: map %q: %w", ids, err)
	}
	for _, w := range []struct{ path, text string }{
		{"/proc/self/setgroups", "deny"},
		{"/proc/self/uid_map", fmt.Sprintf("%d %d 1", uid, uid)},
		{"/proc/self/gid_map", fmt.Sprintf("%d %d 1", gid, gid)},
	} {
		if err := os.WriteFile(w.path, []byte(w.text), 0); err != nil {
			return fmt.Errorf("setting up the user namespace: %w", err)
		}
	}
	return nil
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

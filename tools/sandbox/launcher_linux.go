package sandbox

import (
	"fmt"
	"os"
	"runtime"
	"syscall"

	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// launcherArg is the hidden first argument that makes the binary the
// sandbox launcher instead of itself.
const launcherArg = "__sandbox-exec"

// envGoLauncher makes the C launcher step aside for this Go one (tests).
const envGoLauncher = "AGENT_LSP_SANDBOX_GO_LAUNCHER"

// launcherFailed is the launcher's exit code when it could not set up the
// sandbox (bash never ran): the message is on stderr.
const launcherFailed = 125

// Main makes this process the sandbox launcher when it was started as one
// (os.Args[1] is the hidden launcher argument) and never returns then;
// otherwise it returns at once. Started as the init of a contained
// process tree (ContainTree), it runs that and exits. Call it first
// thing in main, before anything else starts, and in TestMain of
// packages whose tests run sandboxed commands or contained trees.
//
// Built with cgo (the default on Linux), the launcher is launcher.c: a
// constructor that runs before the Go runtime starts, which takes a
// millisecond where starting the daemon's runtime and package
// initialisers takes several, on every command. Main is the launcher of
// builds without cgo (and of tests that set envGoLauncher).
func Main() {
	if len(os.Args) >= 2 && os.Args[1] == treeInitArg {
		os.Exit(treeInit(os.Args[2:])) // a contained tree's init: tree_init_linux.go
	}
	if len(os.Args) < 2 || os.Args[1] != launcherArg {
		return
	}
	err := launch(os.Args[2:])
	fmt.Fprintf(os.Stderr, "agent-lsp sandbox: %v\n", err)
	os.Exit(launcherFailed)
}

// launch applies the policy in the environment and execs bash with args;
// it returns only on failure.
func launch(args []string) error {
	runtime.LockOSThread() // never unlocked: this thread execs
	raw, ok := os.LookupEnv(policyEnv)
	if !ok {
		return fmt.Errorf("no policy in %s", policyEnv)
	}
	if err := os.Unsetenv(policyEnv); err != nil {
		return fmt.Errorf("removing the policy variable: %w", err)
	}
	p, err := decodePolicy(raw)
	if err != nil {
		return err
	}
	if p.MapIDs != "" {
		if err := selfMap(p.MapIDs); err != nil {
			return err
		}
	}
	var portFDs []int
	if p.Namespace {
		if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
			return fmt.Errorf("making mounts private: %w", err)
		}
		if err := mountPinned(p.Pinned); err != nil {
			return err
		}
		if err := mountReadOnly(p.ReadOnly); err != nil {
			return err
		}
		// A procfs of the command's own PID namespace: the daemon and
		// every other process outside are not there at all, so neither
		// their environment nor their memory can be read. (Landlock's
		// ptrace scoping stops ptrace attach, but on some kernels not the
		// reading of /proc/<pid>/environ.)
		if err := unix.Mount("proc", "/proc", "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err != nil {
			return fmt.Errorf("mounting /proc for the PID namespace: %w", err)
		}
		if err := grantMount(p.RulesetFD, "/proc", (ll.AccessFSExecute|ll.AccessFSReadFile|ll.AccessFSReadDir)&p.HandledFS); err != nil {
			return err
		}
		limitPids(p.MaxProcs)
		if err := privateShm(p); err != nil {
			return err
		}
		if p.Loopback {
			if err := loopbackUp(); err != nil {
				return err
			}
		}
		if portFDs, err = listenHostPorts(p.HostPorts); err != nil {
			return err
		}
	}
	if err := setLimit(unix.RLIMIT_NPROC, p.MaxProcs); err != nil {
		return fmt.Errorf("setting the process limit: %w", err)
	}
	if err := setLimit(unix.RLIMIT_DATA, p.MaxData); err != nil {
		return fmt.Errorf("setting the memory limit: %w", err)
	}
	// Orphans of the command (a daemonizing `( cmd & )`) are re-parented
	// to bash, not to the host's init: the command's processes stay one
	// tree while it runs, which the freeze around the editor's edits
	// walks (tools/freeze_linux.go). Under a PID namespace bash is init
	// already; the setting survives the exec.
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("becoming the child subreaper: %w", err)
	}
	if err := unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0); err != nil {
		return fmt.Errorf("dropping ambient capabilities: %w", err)
	}
	if err := restrict(p); err != nil {
		return err
	}
	if err := seccompHandoff(p, portFDs); err != nil {
		return err
	}
	argv := append([]string{"bash"}, args...)
	if err := syscall.Exec(p.Shell, argv, os.Environ()); err != nil {
		return fmt.Errorf("exec %s: %w", p.Shell, err)
	}
	return nil
}

// restrict applies the daemon's Landlock ruleset to this thread, which
// execs bash next: exec keeps the calling thread's credentials (the
// Landlock domain) and ends the others. (go-landlock's all-threads path
// signals every thread, which hangs when this process is PID 1 of its
// own PID namespace.)
func restrict(p launchPolicy) error {
	defer unix.Close(p.RulesetFD)
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("no_new_privs: %w", err)
	}
	if err := ll.LandlockRestrictSelf(p.RulesetFD, p.RulesetFlags); err != nil {
		return fmt.Errorf("landlock: restrict: %w", err)
	}
	return nil
}

// mountReadOnly bind-mounts each path read-only over itself, in the
// command's own mount namespace. The remount keeps the flags the mount
// below has (a user namespace may not clear nosuid, nodev, ...).
func mountReadOnly(paths []string) error {
	for _, path := range paths {
		if err := unix.Mount(path, path, "", unix.MS_BIND, ""); err != nil {
			return fmt.Errorf("bind-mounting %s: %w", path, err)
		}
		var st unix.Statfs_t
		if err := unix.Statfs(path, &st); err != nil {
			return fmt.Errorf("statfs %s: %w", path, err)
		}
		keep := uintptr(st.Flags) & (unix.MS_NOSUID | unix.MS_NODEV | unix.MS_NOEXEC | unix.MS_NOATIME | unix.MS_NODIRATIME | unix.MS_RELATIME)
		if err := unix.Mount("", path, "", unix.MS_BIND|unix.MS_REMOUNT|unix.MS_RDONLY|keep, ""); err != nil {
			return fmt.Errorf("remounting %s read-only: %w", path, err)
		}
	}
	return nil
}

// mountPinned bind-mounts each directory onto itself: a mount point
// cannot be renamed, removed or replaced (EBUSY), so a git dir stays the
// one whose hooks and config are mounted read-only next, while what is
// inside stays writable.
func mountPinned(dirs []string) error {
	for _, d := range dirs {
		if err := unix.Mount(d, d, "", unix.MS_BIND, ""); err != nil {
			return fmt.Errorf("pinning %s: %w", d, err)
		}
	}
	return nil
}

// loopbackUp brings up lo in the command's new network namespace, so
// servers on 127.0.0.1 work; there is no other interface, so nothing
// leaves the machine.
func loopbackUp() error {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("loopback: socket: %w", err)
	}
	defer unix.Close(fd)
	ifr, err := unix.NewIfreq("lo")
	if err != nil {
		return fmt.Errorf("loopback: %w", err)
	}
	if err := unix.IoctlIfreq(fd, unix.SIOCGIFFLAGS, ifr); err != nil {
		return fmt.Errorf("loopback: reading flags: %w", err)
	}
	ifr.SetUint16(ifr.Uint16() | unix.IFF_UP)
	if err := unix.IoctlIfreq(fd, unix.SIOCSIFFLAGS, ifr); err != nil {
		return fmt.Errorf("loopback: bringing lo up: %w", err)
	}
	return nil
}

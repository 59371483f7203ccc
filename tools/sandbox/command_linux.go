package sandbox

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"syscall"
	"time"

	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// launcherPath is the daemon's own executable, as the kernel knows it:
// still valid when the file on disk was replaced by an upgrade. (A
// variable so that a benchmark can time the real binary as launcher.)
var launcherPath = "/proc/self/exe"

// minABI is the oldest Landlock ABI the sandbox runs on (ABI 1 has file
// access rights; later ones add rename control, truncate, TCP, scoping,
// which go-landlock's best-effort mode leaves out where missing).
const minABI = 1

// probeTimeout bounds each launch of the check.
const probeTimeout = 10 * time.Second

// checkKernel is what New finds out without starting anything: the run
// forced unavailable, Landlock at all, bash. It reports whether a launch
// must still tell (launchProbe); if not, the status is final.
func (s *Sandbox) checkKernel() (needsLaunch bool) {
	if s.settings.ForceUnavailable {
		s.status.Unavailable = "disabled for this run (forced unavailable)"
		return false
	}
	abi, err := llsys.LandlockGetABIVersion()
	if err != nil || abi < minABI {
		s.status.Unavailable = "the kernel has no Landlock (needs Linux 5.13+ with landlock in the lsm= list)"
		if err != nil {
			s.status.Unavailable += ": " + err.Error()
		}
		return false
	}
	s.shell, err = exec.LookPath("bash")
	if err != nil {
		s.status.Unavailable = "bash not found: " + err.Error()
		return false
	}
	if s.shell, err = absPath(s.shell); err != nil {
		s.status.Unavailable = err.Error()
		return false
	}
	s.status.ABI = abi
	return true
}

// launchProbe finds what this machine supports by starting a confined
// `exit 0`: with namespaces, else without (ctx ends it: Close).
func (s *Sandbox) launchProbe(ctx context.Context) {
	if s.status.ABI < 4 && s.settings.Network != NetworkAllow {
		s.status.Limits = append(s.status.Limits, fmt.Sprintf("Landlock ABI %d has no TCP rules", s.status.ABI))
	}
	var whyNoNS string
	if !s.settings.NoNamespaces {
		s.namespaces = true
		if _, err := s.tryLaunch(ctx, "exit 0"); err == nil {
			s.status.Active, s.status.Namespaces = true, true
			return
		} else if ctx.Err() != nil {
			s.status.Unavailable = errClosedUnchecked
			return
		} else {
			whyNoNS = err.Error()
		}
	} else {
		whyNoNS = "disabled for this run"
	}
	s.namespaces = false
	if _, err := s.tryLaunch(ctx, "exit 0"); err != nil {
		s.status.Unavailable = "the sandboxed launcher failed: " + err.Error()
		if ctx.Err() != nil {
			s.status.Unavailable = errClosedUnchecked
		}
		return
	}
	// Landlock's ptrace scoping refuses ptrace attach, but some kernels
	// (this is checked, not assumed) still let a sandboxed process read
	// its parent's /proc/<pid>/environ; only the daemon being
	// non-dumpable stops that without a PID namespace.
	if out, err := s.tryLaunch(ctx, `cat /proc/$PPID/environ >/dev/null 2>&1 && echo readable`); err == nil && strings.Contains(out, "readable") {
		s.status.Limits = append(s.status.Limits, "without a PID namespace a command can read the daemon's /proc/<pid>/environ on this kernel")
	}
	if ctx.Err() != nil {
		s.status.Limits, s.status.Unavailable = nil, errClosedUnchecked
		return
	}
	s.status.Active = true
	s.status.Limits = append(s.status.Limits, "no user namespaces ("+whyNoNS+"): git metadata is kept read-only by leaving it out of the grants, so new files right in a workspace root or in its git dir cannot be created (git add and git commit fail)")
	switch s.settings.Network {
	case NetworkLocal:
		s.status.Limits = append(s.status.Limits, "network local falls back to Landlock TCP rules, which filter by port, not address: every TCP connection is refused, loopback too"+s.hostPortsAnywhere()+"; UDP is not filtered")
	case NetworkDeny:
		s.status.Limits = append(s.status.Limits, "network deny falls back to Landlock TCP rules: TCP connect and bind refused; UDP is not filtered")
	}
}

// tryLaunch runs command through the launcher with the current settings
// and returns its output.
func (s *Sandbox) tryLaunch(ctx context.Context, command string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	cmd, release, err := s.command(command, s.roots[0], os.Environ())
	if err != nil {
		return "", err
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	// Start and Wait on one locked thread: Pdeathsig fires when the
	// forking thread exits.
	started, done := make(chan error, 1), make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		err := cmd.Start()
		release()
		if err != nil {
			started <- err
			return
		}
		started <- nil
		done <- cmd.Wait()
	}()
	if err := <-started; err != nil {
		return "", err
	}
	select {
	case err = <-done:
	case <-ctx.Done():
		_ = cmd.Process.Kill()
		err = <-done
	}
	if err != nil {
		if msg := strings.TrimSpace(out.String()); msg != "" {
			return "", fmt.Errorf("%w: %s", err, msg)
		}
		return "", err
	}
	return out.String(), nil
}

// Command returns the command that runs `bash -c command` in dir, with
// env (plus TMPDIR and the build caches, see withCaches) as its
// environment, inside the sandbox, and a release function to call once
// the command has started (or will not be): it closes the daemon's copy
// of the Landlock ruleset and, under namespaces, sets up the command's
// user namespace and lets the launcher go on (until then it waits). The command leads a
// new session (so one kill reaches its process group) and gets SIGKILL
// when the thread that starts it exits (Pdeathsig): the caller starts it
// and waits for it from one goroutine locked to its thread. With the
// sandbox inactive the command is plain bash. The first command waits
// for the check of what the machine supports (Status): none starts
// unconfined because the check had not ended.
func (s *Sandbox) Command(command, dir string, env []string) (*exec.Cmd, func(), error) {
	if !s.Status().Active {
		cmd := exec.Command("bash", "-c", command)
		cmd.Dir, cmd.Env = dir, env
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Pdeathsig: syscall.SIGKILL}
		return cmd, func() {}, nil
	}
	return s.command(command, dir, env)
}

func (s *Sandbox) command(command, dir string, env []string) (*exec.Cmd, func(), error) {
	l, err := s.prepare(command, dir, env)
	if err != nil {
		return nil, nil, err
	}
	cmd := l.cmd()
	ruleset := l.Ruleset // closed once the command ended (buildAfter)
	l.Ruleset = nil
	release := l.close
	tw, err := newTripwire(l.tripwires, &s.trips)
	if err != nil {
		release()
		_ = ruleset.Close()
		return nil, nil, fmt.Errorf("sandbox: watching git metadata: %w", err)
	}
	if tw != nil {
		release = tw.arm(cmd, release)
	}
	started := release
	release = func() {
		started()
		if cmd.Process == nil { // not started
			_ = ruleset.Close()
			return
		}
		s.reads.buildAfter(cmd.Process.Pid, l.next, ruleset)
	}
	return cmd, release, nil
}

// prepared is one sandboxed command as the daemon prepared it: everything
// needed to start the launcher, by the daemon itself (command) or by
// another process of this binary it hands the command to (Handoff).
type prepared struct {
	Command, Dir string
	Env          []string // without TMPDIR and the policy variable, with the caches (withCaches)
	TmpDir       string
	Policy       string // the encoded launch policy (the ruleset is fd 3)
	Namespaces   bool
	NewNet       bool        // a new network namespace too
	Gated        bool        // an ordinary user's namespaces: the launcher maps its own ids (policy MapIDs)
	Ruleset      *os.File    // the Landlock ruleset; its holder closes it
	Channel      *os.File    // the launcher's end of the socket supervision's channel (sockets_linux.go), nil: none; its holder closes it
	tripwires    []tripPath  // watched while the daemon's own command runs (tripwire_linux.go)
	next         nextRuleset // the next command's ruleset is built from it once this one ended (ahead_linux.go)
}

// close closes this process's copies of what the launcher inherits.
func (l prepared) close() {
	if l.Ruleset != nil {
		_ = l.Ruleset.Close()
	}
	if l.Channel != nil {
		_ = l.Channel.Close()
	}
}

// prepare builds the policy and the Landlock ruleset of one command.
func (s *Sandbox) prepare(command, dir string, env []string) (prepared, error) {
	p, err := s.buildPolicy()
	if err != nil {
		return prepared{}, err
	}
	p.HandledFS = handledFS(s.status.ABI)
	fd, flags, next, err := s.reads.ruleset(p, p.HandledFS)
	if err != nil {
		return prepared{}, err
	}
	ruleset := os.NewFile(uintptr(fd), "landlock-ruleset")
	p.RulesetFD, p.RulesetFlags = 3, flags // the first of ExtraFiles
	gated := s.namespaces && os.Getuid() != 0
	if gated {
		p.MapIDs = fmt.Sprintf("%d:%d", os.Getuid(), os.Getgid())
	}
	// The supervision starts now and ends with the command, or at once
	// when the launcher never gets the channel (its end is closed).
	channel, err := s.socketChannel(&p)
	if err != nil {
		_ = ruleset.Close()
		return prepared{}, fmt.Errorf("sandbox: socket supervision: %w", err)
	}
	enc, err := p.encode()
	if err != nil {
		_ = ruleset.Close()
		if channel != nil {
			_ = channel.Close()
		}
		return prepared{}, err
	}
	env = withCaches(withoutVar(withoutVar(env, "TMPDIR"), policyEnv), s.cacheDir)
	return prepared{Command: command, Dir: dir, Env: env, TmpDir: s.tmpDir, Policy: enc, Namespaces: s.namespaces,
		NewNet: s.settings.Network != NetworkAllow, Gated: gated, Ruleset: ruleset, Channel: channel, tripwires: p.Tripwires, next: next}, nil
}

// cmd is the launcher's command for l: the binary itself (launcherPath)
// with the hidden launcher argument, in a new session, SIGKILLed when the
// thread that starts it exits.
func (l prepared) cmd() *exec.Cmd {
	cmd := exec.Command(launcherPath, launcherArg, "-c", l.Command)
	cmd.Args[0] = "agent-lsp-sandbox"
	cmd.Dir = l.Dir
	cmd.Env = append(withoutVar(withoutVar(l.Env, "TMPDIR"), policyEnv), "TMPDIR="+l.TmpDir, policyEnv+"="+l.Policy)
	attr := &syscall.SysProcAttr{Setsid: true, Pdeathsig: syscall.SIGKILL}
	cmd.ExtraFiles = []*os.File{l.Ruleset}
	if l.Namespaces {
		// A new PID namespace: when its first process (bash, after the
		// launcher's exec) dies, the kernel kills everything left in it,
		// so nothing a command started outlives the daemon. The IPC
		// namespace keeps System V shared memory and message queues
		// private.
		attr.Cloneflags = syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS | syscall.CLONE_NEWPID | syscall.CLONE_NEWIPC
		if l.NewNet {
			attr.Cloneflags |= syscall.CLONE_NEWNET
		}
		if !l.Gated {
			// root may write any process's maps, and maps every id, so
			// that files owned by others stay theirs. (Mapped before the
			// launcher's exec, root in the namespace keeps root's rights
			// over them.) An ordinary user's maps are not written here:
			// Go would write them between fork and exec, while the child
			// is still as non-dumpable as the daemon, and an unprivileged
			// parent may not write a non-dumpable process's uid_map; the
			// launcher maps its own ids once it has exec'd (MapIDs).
			attr.UidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: 0, Size: 1<<32 - 1}}
			attr.GidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: 0, Size: 1<<32 - 1}}
			attr.GidMappingsEnableSetgroups = true
		}
		// The launcher keeps what it needs to map its ids, to mount, to
		// bring lo up and to listen on a host port below 1024
		// (sandbox.hostPorts) across its own exec, and drops them all
		// before it execs bash.
		attr.AmbientCaps = []uintptr{unix.CAP_SYS_ADMIN, unix.CAP_NET_ADMIN, unix.CAP_NET_BIND_SERVICE}
	}
	cmd.SysProcAttr = attr
	if l.Channel != nil {
		cmd.ExtraFiles = append(cmd.ExtraFiles, nil, l.Channel) // fd 5: chanFD (fd 4 is closed)
	}
	return cmd
}

func absPath(p string) (string, error) {
	if strings.HasPrefix(p, "/") {
		return p, nil
	}
	return "", errors.New("bash is not at an absolute path: " + p)
}

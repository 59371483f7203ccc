package sandbox

import (
	"errors"
	"fmt"
	"os"
	"strconv"
)

// usernsGate sets up the user namespace of an ordinary user's contained
// tree (ContainTree: an MCP server under its init) from the daemon once
// the init has exec'd, and then lets the init go on. (A sandboxed
// command's launcher maps its own ids instead, holding CAP_SYS_ADMIN in
// its namespace until it drops every capability; the init starts the
// server with none, so the daemon writes its maps.)
//
// The daemon is non-dumpable (procenv.Protect keeps its memory and
// environment from other processes of the user), and a forked child
// stays so until it execs: its /proc/<pid> files belong to root then, so
// an unprivileged daemon cannot write the child's uid_map, which is when
// Go's SysProcAttr.UidMappings would write it. After exec the init is an
// ordinary dumpable process of the user, whose maps its parent may
// write. So the init starts in its new namespaces with no mapping,
// reads the gate's pipe first thing, and goes on only once the daemon has
// written the maps and a "1" into it; anything else (an error text, or
// EOF because the daemon died) makes it exit with that message.
type usernsGate struct {
	launcherEnd *os.File // the init's read end, passed as an ExtraFile
	daemonEnd   *os.File
}

func newUsernsGate() (*usernsGate, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("sandbox: user namespace gate: %w", err)
	}
	return &usernsGate{launcherEnd: r, daemonEnd: w}, nil
}

// open writes the maps of the started init (proc nil: it did not
// start) and tells it whether to go on.
func (g *usernsGate) open(proc *os.Process) {
	_ = g.launcherEnd.Close()
	defer g.daemonEnd.Close()
	if proc == nil {
		return
	}
	if err := writeIDMaps(proc.Pid, os.Getuid(), os.Getgid()); err != nil {
		_, _ = g.daemonEnd.WriteString("0setting up the user namespace: " + err.Error())
		return
	}
	_, _ = g.daemonEnd.WriteString("1")
}

// writeIDMaps maps an ordinary user's own ids into the command's user
// namespace (root's are mapped by exec, see Command). It first gives up
// setgroups (the kernel's rule for an unprivileged gid_map), so the
// command cannot drop a supplementary group that a file denies access to.
func writeIDMaps(pid, uid, gid int) error {
	dir := "/proc/" + strconv.Itoa(pid) + "/"
	uidMap := fmt.Sprintf("%d %d 1", uid, uid)
	gidMap := fmt.Sprintf("%d %d 1", gid, gid)
	if err := writeProcFile(dir+"setgroups", "deny"); err != nil {
		return err
	}
	if err := writeProcFile(dir+"uid_map", uidMap); err != nil {
		return err
	}
	return writeProcFile(dir+"gid_map", gidMap)
}

func writeProcFile(path, text string) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	_, werr := f.WriteString(text)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	return werr
}

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

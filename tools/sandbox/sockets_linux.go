package sandbox

import (
	"context"
	"net"
	"os"
	"sync"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The unix socket supervision, daemon side. Each sandboxed command runs
// under the seccomp filter of seccomp_filter_linux.go, whose connect()
// calls wait for this process: the launcher hands the filter's listener
// (and the host port listeners, hostports_linux.go) over a socketpair
// inherited as chanFD, and a supervisor goroutine answers every connect
// (unixconnect_linux.go) until the command's last process is gone (the
// listener then polls as hung up) or the Sandbox closes.

// chanFD is the channel's descriptor in the launcher: ExtraFiles[2] (3 is
// the Landlock ruleset, 4 the launcher's sync pipe).
const chanFD = 5

// The seccomp user-notification ABI (linux/seccomp.h), which
// golang.org/x/sys/unix has constants for but no types.
type seccompData struct {
	Nr                 int32
	Arch               uint32
	InstructionPointer uint64
	Args               [6]uint64
}

type seccompNotif struct {
	ID    uint64
	Pid   uint32
	Flags uint32
	Data  seccompData
}

type seccompNotifResp struct {
	ID    uint64
	Val   int64
	Error int32
	Flags uint32
}

// seccompIoctlNotifIDValid is SECCOMP_IOCTL_NOTIF_ID_VALID, _IOW('!', 2, __u64).
const seccompIoctlNotifIDValid = 0x40082102

// socketChannel starts one command's supervision: it fills the policy's
// filter, channel and host ports, starts the supervisor (which waits for
// the launcher's handover) and returns the launcher's end of the channel
// (for ExtraFiles, nil where this architecture has no filter), which its
// holder closes once the command has started (or will not be), so that a
// launcher that fails before the handover ends the supervisor. (Started before
// the command, so that a caller that releases late, after Wait, cannot
// leave the command's connects waiting for a supervisor not yet there.)
func (s *Sandbox) socketChannel(p *launchPolicy) (child *os.File, err error) {
	raw, err := socketFilter()
	if err != nil || raw == nil {
		return nil, err
	}
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_SEQPACKET|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	daemonEnd, child := os.NewFile(uintptr(fds[0]), "sandbox-channel"), os.NewFile(uintptr(fds[1]), "sandbox-channel")
	p.Seccomp, p.ChanFD = encodeFilter(raw), chanFD
	if p.Namespace && s.settings.Network == NetworkLocal {
		p.HostPorts = s.settings.HostPorts
	}
	g := &socketGuard{
		sup:          &s.sup,
		roots:        s.roots,
		tmpDir:       s.tmpDir,
		allowSockets: s.sockets,
		privateNet:   p.Namespace && s.settings.Network != NetworkAllow,
		denyTCP:      p.DenyTCP,
		tcpPorts:     p.ConnectPorts,
	}
	ports := p.HostPorts
	s.sup.run(func(ctx context.Context) { g.supervise(ctx, daemonEnd, ports) })
	return child, nil
}

// supervise receives the command's listeners from the channel and serves
// them until the command is gone or ctx ends.
func (g *socketGuard) supervise(ctx context.Context, channel *os.File, ports []int) {
	listener, portFiles := receiveListeners(ctx, channel, len(ports))
	if listener == nil {
		return // the launcher failed before the handover (its error is the command's output)
	}
	defer listener.Close()
	var wg sync.WaitGroup
	fwdCtx, stopForwarding := context.WithCancel(ctx)
	for i, f := range portFiles {
		ln, err := net.FileListener(f)
		_ = f.Close()
		if err != nil {
			continue
		}
		wg.Add(1)
		go func(port int) {
			defer wg.Done()
			forwardHostPort(fwdCtx, ln, port)
		}(ports[i])
	}
	g.serve(ctx, listener)
	stopForwarding()
	wg.Wait()
}

// receiveListeners reads the launcher's one message: the seccomp
// listener, then nPorts port listeners. nil when the launcher ended
// without sending it.
func receiveListeners(ctx context.Context, channel *os.File, nPorts int) (*os.File, []*os.File) {
	c, err := net.FileConn(channel)
	_ = channel.Close()
	if err != nil {
		return nil, nil
	}
	defer c.Close()
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return nil, nil
	}
	stop := context.AfterFunc(ctx, func() { _ = uc.SetReadDeadline(time.Unix(1, 0)) })
	defer stop()
	oob := make([]byte, unix.CmsgSpace(4*(1+nPorts)))
	_, oobn, _, _, err := uc.ReadMsgUnix(make([]byte, 1), oob)
	if err != nil || oobn == 0 {
		return nil, nil
	}
	msgs, err := unix.ParseSocketControlMessage(oob[:oobn])
	if err != nil || len(msgs) != 1 {
		return nil, nil
	}
	fds, err := unix.ParseUnixRights(&msgs[0])
	if err != nil || len(fds) != 1+nPorts {
		for _, fd := range fds {
			_ = unix.Close(fd)
		}
		return nil, nil
	}
	// Non-blocking, so that the runtime's poller waits on it and a
	// deadline can end the wait.
	_ = unix.SetNonblock(fds[0], true)
	listener := os.NewFile(uintptr(fds[0]), "seccomp-listener")
	var ports []*os.File
	for _, fd := range fds[1:] {
		ports = append(ports, os.NewFile(uintptr(fd), "host-port"))
	}
	return listener, ports
}

// serve answers the listener's notifications, each in its own goroutine
// (a connect can wait for its peer), until every process under the filter
// is gone (POLLHUP) or ctx ends; then it waits for the answers.
func (g *socketGuard) serve(ctx context.Context, listener *os.File) {
	rc, err := listener.SyscallConn()
	if err != nil {
		return
	}
	stop := context.AfterFunc(ctx, func() { _ = listener.SetReadDeadline(time.Unix(1, 0)) })
	defer stop()
	var answers sync.WaitGroup
	defer answers.Wait()
	defer g.abort() // before the wait
	for {
		var req seccompNotif
		got, hup := false, false
		err := rc.Read(func(fd uintptr) bool {
			// NOTIF_RECV blocks whatever O_NONBLOCK says: poll first.
			pfd := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
			n, err := unix.Poll(pfd, 0)
			if err != nil || n == 0 {
				return false
			}
			if pfd[0].Revents&unix.POLLIN == 0 {
				hup = true
				return true
			}
			// ENOENT: the caller went away in between.
			got = ioctlPtr(int(fd), unix.SECCOMP_IOCTL_NOTIF_RECV, unsafe.Pointer(&req)) == nil
			return true
		})
		if err != nil || hup {
			return
		}
		if !got {
			continue
		}
		answers.Add(1)
		go func() {
			defer answers.Done()
			_ = rc.Control(func(fd uintptr) { g.answer(int(fd), req) })
		}()
	}
}

// answer decides one connect and sends the verdict.
func (g *socketGuard) answer(fd int, req seccompNotif) {
	v := g.decide(fd, req)
	resp := seccompNotifResp{ID: req.ID}
	if v.errno != 0 {
		resp.Error = -int32(v.errno)
	}
	// ENOENT: the caller is gone (killed, or a signal interrupted it).
	_ = ioctlPtr(fd, unix.SECCOMP_IOCTL_NOTIF_SEND, unsafe.Pointer(&resp))
}

// notifValid reports whether the notification is still pending: its
// caller has not gone away, so its pid still names it.
func notifValid(fd int, id uint64) bool {
	return ioctlPtr(fd, seccompIoctlNotifIDValid, unsafe.Pointer(&id)) == nil
}

func ioctlPtr(fd int, req uint, arg unsafe.Pointer) error {
	for {
		_, _, errno := unix.Syscall(unix.SYS_IOCTL, uintptr(fd), uintptr(req), uintptr(arg))
		switch errno {
		case 0:
			return nil
		case unix.EINTR:
			continue
		}
		return errno
	}
}

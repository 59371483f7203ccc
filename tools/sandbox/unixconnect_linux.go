package sandbox

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"unsafe"

	"golang.org/x/sys/unix"
)

// socketGuard decides the connect() calls of one command.
//
// Nothing the command can change after the check is trusted, so no call
// is let through with SECCOMP_USER_NOTIF_FLAG_CONTINUE: the kernel would
// read the descriptor number, the sockaddr and the path's symlinks again,
// and another thread of the command could have swapped any of them in
// between (a unix socket dup2'ed over a TCP one, a path rewritten). Every
// connect is done here instead, on the command's own socket (pidfd_getfd),
// to the address read once (a unix path: to the socket file this process
// opened and checked), and its result is the command's. The socket keeps
// its own network namespace, so an address reaches what the command's
// connect would; only Landlock's TCP port rules (no namespaces), which
// bind the command and not this process, are applied here by hand.
type socketGuard struct {
	sup          *supervisors
	roots        []string // resolved workspace roots
	tmpDir       string   // the private temp dir, resolved
	allowSockets []string // Settings.AllowSockets, absolute
	// privateNet: the command has its own network namespace, so an
	// abstract unix name can only reach a socket of the command itself.
	privateNet bool
	// denyTCP: the command's Landlock ruleset refuses TCP connect but to
	// tcpPorts (no namespaces, network local or deny).
	denyTCP  bool
	tcpPorts []int

	mu       sync.Mutex
	inflight map[int]bool // sockets this process is connecting (its copies)
	stopping bool         // the command is gone or the Sandbox closing
}

// verdict is the answer to one notification: the result of the call done
// here (errno 0: success).
type verdict struct {
	errno unix.Errno
}

// sockaddrMax is sizeof(struct sockaddr_storage): the kernel refuses
// longer addresses with EINVAL.
const sockaddrMax = 128

func (g *socketGuard) decide(listener int, req seccompNotif) verdict {
	pid := int(req.Pid)
	sockFD, addrPtr, addrLen := int(int32(req.Data.Args[0])), uintptr(req.Data.Args[1]), int(int32(req.Data.Args[2]))
	if addrLen < 0 || addrLen > sockaddrMax {
		return verdict{errno: unix.EINVAL}
	}
	pidfd, err := threadPidfd(pid)
	if err != nil {
		return verdict{errno: unix.EACCES}
	}
	defer unix.Close(pidfd)
	sock, err := unix.PidfdGetfd(pidfd, sockFD, 0)
	if err != nil {
		return verdict{errno: errnoOf(err, unix.EACCES)}
	}
	defer unix.Close(sock)
	addr := make([]byte, addrLen)
	if addrLen > 0 {
		local := []unix.Iovec{{Base: &addr[0], Len: uint64(addrLen)}}
		remote := []unix.RemoteIovec{{Base: addrPtr, Len: addrLen}}
		if n, err := unix.ProcessVMReadv(pid, local, remote, 0); err != nil || n != addrLen {
			return verdict{errno: unix.EFAULT}
		}
	}
	domain, err := unix.GetsockoptInt(sock, unix.SOL_SOCKET, unix.SO_DOMAIN)
	if err != nil {
		return verdict{errno: errnoOf(err, unix.ENOTSOCK)}
	}
	if domain != unix.AF_UNIX {
		if errno := g.tcpRule(sock, domain, addr); errno != 0 {
			return verdict{errno: errno}
		}
		return verdict{errno: g.connecting(sock, func() unix.Errno { return rawConnect(sock, addr) })}
	}
	if addrLen <= 2 || uint16(addr[0])|uint16(addr[1])<<8 != unix.AF_UNIX {
		return verdict{errno: g.connecting(sock, func() unix.Errno { return rawConnect(sock, addr) })} // no path: the kernel's EINVAL, or AF_UNSPEC's disconnect
	}
	path := addr[2:]
	if path[0] == 0 {
		// An abstract name: in the command's own network namespace only
		// its own sockets have one; otherwise it could be the host's.
		if !g.privateNet {
			g.sup.refuse("@" + strings.TrimRight(string(path[1:]), "\x00"))
			return verdict{errno: unix.EACCES}
		}
		return verdict{errno: g.connecting(sock, func() unix.Errno { return rawConnect(sock, addr) })}
	}
	if i := strings.IndexByte(string(path), 0); i >= 0 {
		path = path[:i]
	}
	return g.connectPath(listener, req.ID, pid, sock, string(path))
}

// connectPath connects sock to the unix socket at path, as the command
// (pid) names it, when that socket lies in a workspace root or the private
// temp dir or is one the user allowed; EACCES otherwise.
//
// The path is resolved from the command's own root (absolute) or working
// directory (relative), in its mount namespace, without magic links (a
// /proc/<pid>/fd/N would name a socket by descriptor), to an O_PATH
// descriptor; the check is on that descriptor's file, and the connect
// goes to it (through /proc/self/fd/N), so no rename or symlink swap after
// the check changes where the connection lands.
func (g *socketGuard) connectPath(listener int, id uint64, pid, sock int, path string) verdict {
	base, resolve := "cwd", uint64(unix.RESOLVE_NO_MAGICLINKS)
	if filepath.IsAbs(path) {
		base, resolve = "root", resolve|unix.RESOLVE_IN_ROOT
	}
	dir, err := unix.Open("/proc/"+strconv.Itoa(pid)+"/"+base, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return verdict{errno: unix.EACCES}
	}
	defer unix.Close(dir)
	if !notifValid(listener, id) { // the pid is still the caller's
		return verdict{errno: unix.EACCES}
	}
	f, err := unix.Openat2(dir, path, &unix.OpenHow{Flags: unix.O_PATH | unix.O_CLOEXEC, Resolve: resolve})
	if err != nil {
		return verdict{errno: errnoOf(err, unix.ENOENT)}
	}
	defer unix.Close(f)
	var st unix.Stat_t
	if err := unix.Fstat(f, &st); err != nil {
		return verdict{errno: unix.EACCES}
	}
	if st.Mode&unix.S_IFMT != unix.S_IFSOCK {
		return verdict{errno: unix.ECONNREFUSED} // what connect says of a file that is no socket
	}
	where, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(f))
	if err != nil {
		return verdict{errno: unix.EACCES}
	}
	if !g.allowed(where, &st) {
		g.sup.refuse(where)
		return verdict{errno: unix.EACCES}
	}
	return verdict{errno: g.connecting(sock, func() unix.Errno {
		return errnoOf(unix.Connect(sock, &unix.SockaddrUnix{Name: "/proc/self/fd/" + strconv.Itoa(f)}), 0)
	})}
}

// allowed reports whether the socket file at where (st) may be connected
// to: it lies in a workspace root or the private temp dir, or it is (the
// same file as) a socket the user allowed.
func (g *socketGuard) allowed(where string, st *unix.Stat_t) bool {
	for _, dir := range append([]string{g.tmpDir}, g.roots...) {
		if dir != "" && within(dir, where) {
			return true
		}
	}
	for _, a := range g.allowSockets {
		var ast unix.Stat_t
		if unix.Stat(a, &ast) == nil && ast.Dev == st.Dev && ast.Ino == st.Ino {
			return true
		}
	}
	return false
}

// tcpRule applies the command's Landlock TCP connect rule to a connect
// done here: under denyTCP an IPv4 or IPv6 stream socket may connect only
// to tcpPorts (AF_UNSPEC, a disconnect, is allowed, as Landlock does).
// Stricter than Landlock in one way: every stream protocol is held to it
// (MPTCP, SCTP), not only TCP.
func (g *socketGuard) tcpRule(sock, domain int, addr []byte) unix.Errno {
	if !g.denyTCP || (domain != unix.AF_INET && domain != unix.AF_INET6) {
		return 0
	}
	if typ, err := unix.GetsockoptInt(sock, unix.SOL_SOCKET, unix.SO_TYPE); err != nil || typ != unix.SOCK_STREAM {
		return 0
	}
	if len(addr) < 2 {
		return unix.EINVAL
	}
	switch uint16(addr[0]) | uint16(addr[1])<<8 {
	case unix.AF_UNSPEC:
		return 0
	case unix.AF_INET, unix.AF_INET6:
		if len(addr) < 4 {
			return unix.EINVAL
		}
		port := int(addr[2])<<8 | int(addr[3])
		for _, p := range g.tcpPorts {
			if p == port {
				return 0
			}
		}
	}
	return unix.EACCES
}

// pidfdThread is PIDFD_THREAD (Linux 6.9): a pidfd for a thread that
// does not lead its group.
const pidfdThread = unix.O_EXCL

// threadPidfd opens a pidfd for the thread that made the call (the
// notification names a thread, which leads its group only in a
// single-threaded process); before Linux 6.9, for its thread group,
// whose descriptor table its threads share.
func threadPidfd(tid int) (int, error) {
	fd, err := unix.PidfdOpen(tid, pidfdThread)
	if err != unix.EINVAL {
		return fd, err
	}
	status, err := os.ReadFile("/proc/" + strconv.Itoa(tid) + "/status")
	if err != nil {
		return -1, err
	}
	for _, line := range strings.Split(string(status), "\n") {
		if v, ok := strings.CutPrefix(line, "Tgid:"); ok {
			tgid, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil {
				return -1, err
			}
			return unix.PidfdOpen(tgid, 0)
		}
	}
	return -1, unix.ESRCH
}

// connecting runs connect, a connect of sock, where abort can end it: a
// blocking TCP connect to an address that never answers waits minutes,
// and the command that asked may be gone.
func (g *socketGuard) connecting(sock int, connect func() unix.Errno) unix.Errno {
	g.mu.Lock()
	if g.stopping {
		g.mu.Unlock()
		return unix.EACCES
	}
	if g.inflight == nil {
		g.inflight = map[int]bool{}
	}
	g.inflight[sock] = true
	g.mu.Unlock()
	defer func() {
		g.mu.Lock()
		delete(g.inflight, sock)
		g.mu.Unlock()
	}()
	return connect()
}

// abort ends the connects in flight (shutdown wakes a TCP connect still
// waiting for its peer) and refuses any later one: the command is gone,
// or the Sandbox is closing.
func (g *socketGuard) abort() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.stopping = true
	for sock := range g.inflight {
		_ = unix.Shutdown(sock, unix.SHUT_RDWR)
	}
}

// rawConnect connects sock to the sockaddr as the command wrote it (the
// socket keeps its own network namespace, so the connect lands where the
// command's would).
func rawConnect(sock int, addr []byte) unix.Errno {
	var p unsafe.Pointer
	if len(addr) > 0 {
		p = unsafe.Pointer(&addr[0])
	}
	_, _, errno := unix.Syscall(unix.SYS_CONNECT, uintptr(sock), uintptr(p), uintptr(len(addr)))
	return errno
}

// errnoOf is err's errno, or def when it has none (nil err: 0).
func errnoOf(err error, def unix.Errno) unix.Errno {
	if err == nil {
		return 0
	}
	if e, ok := err.(unix.Errno); ok {
		return e
	}
	return def
}

package sandbox

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unsafe"

	"golang.org/x/sys/unix"
)

// socketGuard decides the connect() calls of one command.
//
// Nothing the command can change after the check is trusted: the sockaddr
// is read once from its memory, and a unix socket is never let through
// with SECCOMP_USER_NOTIF_FLAG_CONTINUE (the kernel would read the
// sockaddr, and follow the path's symlinks, again). The connect is done
// here instead, on the command's own socket (pidfd_getfd) to the socket
// file this process opened and checked, and the result is the command's.
type socketGuard struct {
	sup          *supervisors
	roots        []string // resolved workspace roots
	tmpDir       string   // the private temp dir, resolved
	allowSockets []string // Settings.AllowSockets, absolute
	// privateNet: the command has its own network namespace, so an
	// abstract unix name can only reach a socket of the command itself.
	privateNet bool
	// emulateAll: no Landlock network rules apply (namespaces, or network
	// allow), so any connect can be done here rather than let through
	// (the daemon is not in the command's Landlock domain, so a connect
	// Landlock filters by port must run in the command: CONTINUE).
	emulateAll bool
}

// verdict is the answer to one notification: continue (the kernel runs
// the call as asked), or the result of the call done here (errno 0:
// success).
type verdict struct {
	cont  bool
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
	pidfd, err := unix.PidfdOpen(pid, 0)
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
		if !g.emulateAll {
			return verdict{cont: true}
		}
		if !notifValid(listener, req.ID) {
			return verdict{errno: unix.EACCES}
		}
		return verdict{errno: rawConnect(sock, addr)}
	}
	if addrLen <= 2 || uint16(addr[0])|uint16(addr[1])<<8 != unix.AF_UNIX {
		return verdict{errno: rawConnect(sock, addr)} // no path: the kernel's EINVAL, or AF_UNSPEC's disconnect
	}
	path := addr[2:]
	if path[0] == 0 {
		// An abstract name: in the command's own network namespace only
		// its own sockets have one; otherwise it could be the host's.
		if !g.privateNet {
			g.sup.refuse("@" + strings.TrimRight(string(path[1:]), "\x00"))
			return verdict{errno: unix.EACCES}
		}
		return verdict{errno: rawConnect(sock, addr)}
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
	return verdict{errno: errnoOf(unix.Connect(sock, &unix.SockaddrUnix{Name: "/proc/self/fd/" + strconv.Itoa(f)}), 0)}
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

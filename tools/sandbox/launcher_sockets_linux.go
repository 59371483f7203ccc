package sandbox

import (
	"fmt"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The Go launcher's part of the unix socket supervision, as
// launcher_seccomp.c does it for the C launcher.

// listenHostPorts listens on 127.0.0.1:port for each port, in the
// command's network namespace; the daemon accepts there and forwards to
// the host's port (hostports_linux.go).
func listenHostPorts(ports []int) ([]int, error) {
	var fds []int
	for _, port := range ports {
		fd, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
		if err != nil {
			return nil, fmt.Errorf("host port: socket: %w", err)
		}
		_ = unix.SetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_REUSEADDR, 1)
		if err := unix.Bind(fd, &unix.SockaddrInet4{Port: port, Addr: [4]byte{127, 0, 0, 1}}); err != nil {
			return nil, fmt.Errorf("host port %d: listening in the sandbox: %w", port, err)
		}
		if err := unix.Listen(fd, 128); err != nil {
			return nil, fmt.Errorf("host port %d: listening in the sandbox: %w", port, err)
		}
		fds = append(fds, fd)
	}
	return fds, nil
}

// seccompHandoff installs the policy's filter on this thread (the one
// that execs bash; no_new_privs is set) and sends its listener, then the
// port listeners, to the daemon on the policy's channel, keeping no copy.
func seccompHandoff(p launchPolicy, portFDs []int) error {
	if p.Seccomp == "" {
		return nil
	}
	filter, err := decodeFilter(p.Seccomp)
	if err != nil {
		return err
	}
	prog := unix.SockFprog{Len: uint16(len(filter)), Filter: &filter[0]}
	// WAIT_KILLABLE_RECV (Linux 5.19): once the daemon has the
	// notification, a signal (the Go runtime's preemption SIGURG, for
	// one) cannot interrupt the call and restart it, so a connect the
	// daemon makes is not made twice (the second would fail, EISCONN).
	// Older kernels refuse the flag.
	install := func(flags uintptr) (uintptr, unix.Errno) {
		fd, _, errno := unix.RawSyscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, flags, uintptr(unsafe.Pointer(&prog)))
		return fd, errno
	}
	listener, errno := install(unix.SECCOMP_FILTER_FLAG_NEW_LISTENER | unix.SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV)
	if errno == unix.EINVAL {
		listener, errno = install(unix.SECCOMP_FILTER_FLAG_NEW_LISTENER)
	}
	if errno != 0 {
		return fmt.Errorf("seccomp: installing the filter: %w", errno)
	}
	fds := append([]int{int(listener)}, portFDs...)
	if err := unix.Sendmsg(p.ChanFD, []byte{'s'}, unix.UnixRights(fds...), nil, unix.MSG_NOSIGNAL); err != nil {
		return fmt.Errorf("seccomp: handing the listener to the daemon: %w", err)
	}
	for _, fd := range fds {
		_ = unix.Close(fd)
	}
	return unix.Close(p.ChanFD)
}

//go:build unix

package tools

import "syscall"

// readWhole reads the file at path into buf (grown as needed) and returns
// the filled slice; files over maxSearchFileBytes are refused. It uses raw
// syscalls: os.File would also try to register every file with the
// network poller (an epoll_ctl that fails for regular files, and fcntl
// calls), a third more syscalls per file for nothing.
func readWhole(path string, buf []byte) ([]byte, error) {
	fd, err := openNoEINTR(path)
	if err != nil {
		return buf, err
	}
	defer syscall.Close(fd)
	for {
		if len(buf) == cap(buf) {
			if len(buf) >= maxSearchFileBytes {
				return buf, errFileTooLarge
			}
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := syscall.Read(fd, buf[len(buf):cap(buf)])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return buf, err
		}
		if n == 0 {
			return buf, nil
		}
		buf = buf[:len(buf)+n]
	}
}

func openNoEINTR(path string) (int, error) {
	for {
		fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NOCTTY|syscall.O_NONBLOCK, 0)
		if err != syscall.EINTR {
			return fd, err
		}
	}
}

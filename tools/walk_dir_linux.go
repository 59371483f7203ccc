package tools

import (
	"encoding/binary"
	"io"
	"io/fs"
	"os"
	"sync"
	"syscall"
)

// walkDirSys is the Linux directory handle: the directory opened by
// openat in its parent's descriptor, listed with getdents64 and used as the
// base of openat for the files in it. os.File.ReadDir on a file opened in a
// Root stats every entry (it cannot stat lazily by name), and
// os.Root.OpenFile registers every file with the network poller; a search
// opens thousands of files, and both doubled its system calls. Every name
// opened here is one component read from this very directory, opened with
// O_NOFOLLOW: it can only be an entry of a directory inside the workspace,
// as through the Root.
//
// The directory's os.Root is opened only when asked for (dirRoot: a
// .gitignore to read, an entry of unknown type, a file's lstat for glob):
// opening one per directory cost an openat and a close for every directory
// walked, and most directories never need it.
type walkDirSys struct {
	dir  *os.File // keeps fd open, when opened through the Root
	fd   int      // the listing's descriptor
	raw  bool     // fd was opened by openat in the parent's fd: closed by close(2)
	up   *walkDir // the parent, held (a reference) until this closes: dirRoot opens through it
	name string   // in up

	rootOnce sync.Once
	rootErr  error
}

// dirRoot is the directory's os.Root, opened through the parent's on
// first use (the top's is set when it is made).
func (d *walkDir) dirRoot() (*os.Root, error) {
	d.rootOnce.Do(func() {
		if d.root != nil || d.up == nil {
			return
		}
		upRoot, err := d.up.dirRoot()
		if err != nil {
			d.rootErr = err
			return
		}
		d.root, d.rootErr = upRoot.OpenRoot(d.name)
	})
	return d.root, d.rootErr
}

// openWalkDir opens the directory name in parent and lists it. Below the
// start the listing's descriptor is opened by openat in the parent's
// (O_NOFOLLOW, one component, as the files are): Root.Open(".") made an
// os.File, with fcntl, fstat and a refused epoll_ctl for each directory.
// Either way it is a directory inside the workspace.
func openWalkDir(parent *walkDir, name string, entries []dirEntry) (*walkDir, []dirEntry, error) {
	d := &walkDir{}
	d.up, d.name = parent, name
	if parent.raw || parent.dir != nil {
		fd, err := openatRetry(parent.fd, name, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NOFOLLOW|syscall.O_CLOEXEC)
		if err != nil {
			return nil, entries, err
		}
		d.fd, d.raw = fd, true
	} else {
		// The start: its parent is the workspace root's handle, which has
		// a Root and no descriptor.
		root, err := parent.root.OpenRoot(name)
		if err != nil {
			return nil, entries, err
		}
		d.root = root
		f, err := root.Open(".")
		if err != nil {
			root.Close()
			return nil, entries, err
		}
		d.dir, d.fd = f, int(f.Fd())
	}
	parent.refs.Add(1) // released by d.close
	entries, err := readDirents(d.fd, entries, func(name string) (fs.FileInfo, error) {
		root, err := d.dirRoot()
		if err != nil {
			return nil, err
		}
		return root.Lstat(name)
	})
	if err != nil && len(entries) == 0 {
		d.close()
		return nil, entries, err
	}
	return d, entries, nil
}

func (d *walkDir) close() {
	if d.raw {
		syscall.Close(d.fd)
	} else {
		d.dir.Close()
	}
	if d.root != nil {
		d.root.Close()
	}
	d.up.release()
}

// openFile opens the regular file name (one component) in the directory.
func (d *walkDir) openFile(name string) (searchedFile, error) {
	fd, err := openatRetry(d.fd, name, syscall.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK|syscall.O_NOCTTY|syscall.O_CLOEXEC)
	if err != nil {
		return nil, err
	}
	return rawFile(fd), nil
}

// openatRetry opens name (one component) in the directory open at dirfd.
func openatRetry(dirfd int, name string, flags int) (int, error) {
	for {
		fd, err := syscall.Openat(dirfd, name, flags, 0)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return -1, &fs.PathError{Op: "openat", Path: name, Err: err}
		}
		return fd, nil
	}
}

// direntBufBytes is the getdents64 buffer.
const direntBufBytes = 32 << 10

// direntBufPool holds getdents64 buffers: one made per directory was
// 32 KiB allocated and zeroed for each of thousands of directories, which
// kept the garbage collector busy.
var direntBufPool = sync.Pool{New: func() any {
	b := make([]byte, direntBufBytes)
	return &b
}}

// readDirents appends to out the listing of the directory open at fd:
// names and types, without "." and "..". An entry whose type the file
// system does not report is looked up with lstat (the directory's
// Root.Lstat).
func readDirents(fd int, out []dirEntry, lstat func(string) (fs.FileInfo, error)) ([]dirEntry, error) {
	bufp := direntBufPool.Get().(*[]byte)
	defer direntBufPool.Put(bufp)
	buf := *bufp
	for {
		n, err := syscall.ReadDirent(fd, buf)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return out, err
		}
		if n <= 0 {
			return out, nil
		}
		// struct linux_dirent64 { u64 ino; s64 off; u16 reclen; u8 type; char name[]; }
		for b := buf[:n]; len(b) >= 19; {
			reclen := int(binary.NativeEndian.Uint16(b[16:18]))
			if reclen < 19 || reclen > len(b) {
				return out, syscall.EIO
			}
			typ, nameBytes := b[18], b[19:reclen]
			for i, c := range nameBytes {
				if c == 0 {
					nameBytes = nameBytes[:i]
					break
				}
			}
			b = b[reclen:]
			name := string(nameBytes)
			if name == "." || name == ".." {
				continue
			}
			mode, ok := direntMode(typ)
			if !ok {
				fi, err := lstat(name)
				if err != nil {
					continue // gone since it was listed
				}
				mode = fi.Mode().Type()
			}
			out = append(out, dirEntry{name: name, typ: mode})
		}
	}
}

// direntMode maps a dirent's d_type to type bits; false for DT_UNKNOWN.
func direntMode(t byte) (fs.FileMode, bool) {
	switch t {
	case syscall.DT_REG:
		return 0, true
	case syscall.DT_DIR:
		return fs.ModeDir, true
	case syscall.DT_LNK:
		return fs.ModeSymlink, true
	case syscall.DT_FIFO:
		return fs.ModeNamedPipe, true
	case syscall.DT_SOCK:
		return fs.ModeSocket, true
	case syscall.DT_CHR:
		return fs.ModeDevice | fs.ModeCharDevice, true
	case syscall.DT_BLK:
		return fs.ModeDevice, true
	}
	return 0, false
}

// rawFile is a file read with plain system calls: no poller registration.
type rawFile int

func (f rawFile) Read(p []byte) (int, error) {
	for {
		n, err := syscall.Read(int(f), p)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return 0, err
		}
		if n == 0 && len(p) > 0 {
			return 0, io.EOF
		}
		return n, nil
	}
}

func (f rawFile) ReadAt(p []byte, off int64) (int, error) {
	n := 0
	for n < len(p) {
		m, err := syscall.Pread(int(f), p[n:], off+int64(n))
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return n, err
		}
		if m == 0 {
			return n, io.EOF
		}
		n += m
	}
	return n, nil
}

func (f rawFile) Close() error { return syscall.Close(int(f)) }

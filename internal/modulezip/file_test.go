package modulezip

import (
	"io"
	"os"
	"path/filepath"
)

// trackedFile is one file git tracks, as golang.org/x/mod/zip reads it.
type trackedFile struct{ root, name string }

func (f trackedFile) Path() string { return f.name }

func (f trackedFile) Lstat() (os.FileInfo, error) {
	return os.Lstat(filepath.Join(f.root, filepath.FromSlash(f.name)))
}

func (f trackedFile) Open() (io.ReadCloser, error) {
	return os.Open(filepath.Join(f.root, filepath.FromSlash(f.name)))
}

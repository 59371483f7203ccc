//go:build !linux

package tools

import (
	"os"
	"syscall"
)

// walkDirSys is the portable directory handle: listing and opening go
// through the directory's os.Root.
type walkDirSys struct{}

// openWalkDir opens the directory name in parent and lists it.
func openWalkDir(parent *walkDir, name string, entries []dirEntry) (*walkDir, []dirEntry, error) {
	root, err := parent.root.OpenRoot(name)
	if err != nil {
		return nil, entries, err
	}
	f, err := root.Open(".")
	if err != nil {
		root.Close()
		return nil, entries, err
	}
	list, err := f.ReadDir(-1) // unsorted: cheaper than os.ReadDir
	f.Close()
	if err != nil && len(list) == 0 {
		root.Close()
		return nil, entries, err
	}
	for _, e := range list {
		entries = append(entries, dirEntry{name: e.Name(), typ: e.Type()})
	}
	return &walkDir{root: root}, entries, nil
}

func (d *walkDir) openFile(name string) (searchedFile, error) {
	return d.root.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}

func (d *walkDir) close() { d.root.Close() }

// dirRoot is the directory's os.Root.
func (d *walkDir) dirRoot() (*os.Root, error) { return d.root, nil }

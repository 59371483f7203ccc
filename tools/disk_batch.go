package tools

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

var _ BatchApplier = (*DiskDocuments)(nil)

// ApplyAll checks every edit's Before against the disk first and writes
// nothing when one differs; then it writes each file atomically (or
// removes it) in order. A write failing halfway leaves the files before it
// written: the disk has no transaction across files.
func (d *DiskDocuments) ApplyAll(ctx context.Context, edits []FileEdit) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	paths := make([]string, len(edits))
	for i, e := range edits {
		p, err := d.check(e.Before.Path, true)
		if err != nil {
			return err
		}
		paths[i] = p
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	modes := make([]fs.FileMode, len(edits))
	for i, e := range edits {
		current, exists, err := readFileText(paths[i])
		if err != nil {
			return err
		}
		if exists != e.Before.Exists || current != e.Before.Text {
			return fmt.Errorf("%s: %w", paths[i], ErrChangedOnDisk)
		}
		modes[i] = newFileMode
		if exists {
			fi, err := os.Stat(paths[i])
			if err != nil {
				return fmt.Errorf("stat %s: %w", paths[i], err)
			}
			modes[i] = fi.Mode().Perm()
		}
	}
	for i, e := range edits {
		if err := ctx.Err(); err != nil {
			return err
		}
		if e.Delete {
			if err := removeFile(paths[i], e.Before.Exists); err != nil {
				return err
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(paths[i]), 0o755); err != nil {
			return fmt.Errorf("create directory for %s: %w", paths[i], err)
		}
		if err := writeAtomic(paths[i], []byte(e.After), modes[i]); err != nil {
			return err
		}
	}
	return nil
}

// removeFile deletes a file that exists (a missing one is already gone).
func removeFile(path string, exists bool) error {
	if !exists {
		return nil
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("delete %s: %w", path, err)
	}
	return nil
}

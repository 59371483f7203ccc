package tools

import (
	"context"
	"fmt"
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
	for i, e := range edits {
		same, exists, err := fileHolds(d.Workspace, paths[i], e.Before.Text)
		if err != nil {
			return err
		}
		if exists != e.Before.Exists || !same {
			return fmt.Errorf("%s: %w", paths[i], ErrChangedOnDisk)
		}
	}
	for i, e := range edits {
		if err := ctx.Err(); err != nil {
			return err
		}
		if e.Delete {
			if err := d.removeFile(paths[i], e.Before.Exists); err != nil {
				return err
			}
			continue
		}
		if err := d.Workspace.writeFile(paths[i], e.After); err != nil {
			return err
		}
	}
	return nil
}

// removeFile deletes a file that exists (a missing one is already gone).
func (d *DiskDocuments) removeFile(path string, exists bool) error {
	if !exists {
		return nil
	}
	return d.Workspace.removeFile(path)
}

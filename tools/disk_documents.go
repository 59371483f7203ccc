package tools

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"sync"
)

// newFileMode is the mode of files the agent creates (umask does not apply:
// the temp file is chmod-ed explicitly, see Workspace.writeFile).
const newFileMode fs.FileMode = 0o644

// ErrChangedOnDisk is returned by Apply when the file no longer holds the
// text the edit was computed against.
var ErrChangedOnDisk = errors.New("file changed on disk since it was read; read it again")

// DiskDocuments implements Documents on the file system: Read reads the
// disk, Apply writes atomically (Workspace.writeFile: a temp file in the
// same directory, fsync, rename over the target, mode kept) after checking that the file still
// holds Before.Text — or, when it was changed since, that the change and
// the edit touch different lines (they are merged: Merge3) — so a
// concurrent change is never silently overwritten.
//
// Use it as a pointer (&DiskDocuments{Workspace: ws}): it serializes its own
// applies so two edits of one file in the same batch cannot interleave.
// Workspace is required: every path is re-checked through it (Resolve for
// reads, ResolveWrite for writes), and all I/O goes through its roots'
// handles, so nothing outside can be read or written even through a
// symlink swapped in after the check.
type DiskDocuments struct {
	Workspace *Workspace
	mu        sync.Mutex // held from the before-check to the rename
}

var _ Documents = (*DiskDocuments)(nil)

// Read returns the file's text from disk; a missing file is Exists=false.
func (d *DiskDocuments) Read(ctx context.Context, path string) (Doc, error) {
	if err := ctx.Err(); err != nil {
		return Doc{}, err
	}
	path, err := d.check(path, false)
	if err != nil {
		return Doc{}, err
	}
	text, exists, err := readFileText(d.Workspace, path)
	if err != nil {
		return Doc{}, err
	}
	return Doc{Path: path, Text: text, Exists: exists}, nil
}

// Apply writes edit.After to edit.Before.Path. When the file's text
// differs from Before.Text, the edit is merged with that change; a change
// to the same lines, or a file created or deleted since, is refused with
// ErrChangedOnDisk (and ErrEditConflict for a conflict).
func (d *DiskDocuments) Apply(ctx context.Context, edit FileEdit) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	path, err := d.check(edit.Before.Path, true)
	if err != nil {
		return err
	}
	d.mu.Lock()
	defer d.mu.Unlock()

	// Compared in chunks: the common case, a file still as it was read,
	// costs no second copy of it.
	same, exists, err := fileHolds(d.Workspace, path, edit.Before.Text)
	if err != nil {
		return err
	}
	after := edit.After
	switch {
	case exists != edit.Before.Exists, edit.Delete && !same:
		return fmt.Errorf("%s: %w", path, ErrChangedOnDisk)
	case !same:
		// Someone changed the file since it was read: keep their change
		// and make the edit on top of it, unless both touch the same lines.
		current, _, err := readFileText(d.Workspace, path)
		if err != nil {
			return err
		}
		merged, conflicts := Merge3(edit.Before.Text, current, edit.After)
		if len(conflicts) > 0 {
			return fmt.Errorf("%s: %w: %w", path, ErrChangedOnDisk, ConflictError(d.rel(path), "someone", conflicts))
		}
		after = merged
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if edit.Delete {
		return d.removeFile(path, exists)
	}
	return d.Workspace.writeFile(path, after)
}

// rel names path for the model: relative to the workspace when there is one.
func (d *DiskDocuments) rel(path string) string {
	return d.Workspace.Rel(path)
}

func (d *DiskDocuments) check(path string, write bool) (string, error) {
	if d.Workspace == nil {
		return "", errors.New("DiskDocuments has no Workspace")
	}
	if write {
		return d.Workspace.ResolveWrite(path)
	}
	return d.Workspace.Resolve(path)
}

// readFileText reads a regular file whole, through the workspace root.
// Missing is (“”, false, nil); a directory or a special file is an error,
// a file over MaxFileBytes a *TooLargeError (size policy).
func readFileText(ws *Workspace, path string) (string, bool, error) {
	f, fi, err := ws.openRegular(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	defer f.Close()
	if err := CheckSize(ws.Rel(path), fi.Size(), false); err != nil {
		return "", false, err
	}
	// Read into a builder sized to the file: the text is the one copy
	// (io.ReadAll would grow, and string() copy, its buffer). The limit
	// catches a file growing while it is read.
	var b strings.Builder
	b.Grow(int(fi.Size()) + 1)
	n, err := io.Copy(&b, io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return "", false, fmt.Errorf("read %s: %w", path, err)
	}
	if err := CheckSize(ws.Rel(path), n, false); err != nil {
		return "", false, err
	}
	return b.String(), true, nil
}

package tools

import "context"

// TextHolder is implemented by Documents that can tell whether a file
// holds a given text without handing out a copy of it: the disk compares
// in chunks. The session's checkpoints use it before and after a change:
// they hold the text already (what the edit was computed against, what it
// wrote), and reading a second copy of a 20 MB file costs 20 MB more at
// the edit's peak.
type TextHolder interface {
	// Holds reports whether doc.Path holds exactly doc.Text when
	// doc.Exists, or does not exist when not.
	Holds(ctx context.Context, doc Doc) (bool, error)
}

var _ TextHolder = (*DiskDocuments)(nil)

// Holds implements TextHolder for the disk.
func (d *DiskDocuments) Holds(ctx context.Context, doc Doc) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	path, err := d.check(doc.Path, false)
	if err != nil {
		return false, err
	}
	same, exists, err := fileHolds(d.Workspace, path, doc.Text)
	if err != nil {
		return false, err
	}
	if !doc.Exists {
		return !exists, nil
	}
	return exists && same, nil
}

package lsp

import (
	"bytes"
	"os"
)

// savedSince drops the unsaved mark of every marked file whose disk
// already holds the text the editor has: an editor that saves an edit
// before it answers workspace/applyEdit (VS Code with autoSave) sends
// didSave before the daemon marks the file, so that didSave cannot clear
// the mark; the disk says what the order cannot. It returns the files
// still unsaved.
func (d *editorDocuments) savedSince() []string {
	d.mu.Lock()
	marked := make([]string, 0, len(d.unsaved))
	for p := range d.unsaved {
		marked = append(marked, p)
	}
	d.mu.Unlock()
	var still []string
	for _, p := range marked {
		if !d.onDisk(p) {
			still = append(still, p)
		}
	}
	return still
}

// onDisk reports whether path's disk text is the editor's text of it (the
// open buffer, or the edit of a file the editor did not open for us),
// and if so clears its mark, unless an edit changed that text meanwhile.
func (d *editorDocuments) onDisk(path string) bool {
	ov, open := d.s.overlays.get(path)
	d.mu.Lock()
	text, shadowed := d.shadow[path]
	d.mu.Unlock()
	if open {
		text = ov.text
	} else if !shadowed {
		return false
	}
	if fi, err := os.Stat(path); err != nil || !fi.Mode().IsRegular() || fi.Size() != int64(len(text)) {
		return false
	}
	disk, err := os.ReadFile(path)
	if err != nil || !bytes.Equal(disk, []byte(text)) {
		return false
	}
	if now, stillOpen := d.s.overlays.get(path); stillOpen != open || (open && now.version != ov.version) {
		return false
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if cur, ok := d.shadow[path]; ok != shadowed || cur != text && !open {
		return false
	}
	delete(d.unsaved, path)
	delete(d.shadow, path)
	return true
}

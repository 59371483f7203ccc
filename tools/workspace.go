package tools

import (
	"fmt"
	"path/filepath"
)

// Workspace is the sandbox every path argument goes through: the roots the
// agent may touch.
type Workspace struct {
	roots []string // absolute, symlinks resolved, first is the default
}

// NewWorkspace makes a sandbox over the given root directories.
func NewWorkspace(roots ...string) (*Workspace, error) {
	if len(roots) == 0 {
		return nil, fmt.Errorf("workspace: no root given")
	}
	w := &Workspace{}
	for _, r := range roots {
		abs, err := filepath.Abs(r)
		if err != nil {
			return nil, fmt.Errorf("workspace root %q: %w", r, err)
		}
		real, err := filepath.EvalSymlinks(abs)
		if err != nil {
			return nil, fmt.Errorf("workspace root %q: %w", r, err)
		}
		w.roots = append(w.roots, real)
	}
	return w, nil
}

// Roots returns the workspace roots, the default one first.
func (w *Workspace) Roots() []string { return append([]string(nil), w.roots...) }

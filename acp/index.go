package acp

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
)

// CwdIndex remembers the working directory of each session an ACP client
// opened, in one small JSON file beside the session store: session/list
// must give every session's cwd, and the store does not keep one.
type CwdIndex struct {
	path string
	mu   sync.Mutex
	cwds map[string]string
}

// OpenCwdIndex reads the index at path (a missing file is an empty index).
func OpenCwdIndex(path string) (*CwdIndex, error) {
	ix := &CwdIndex{path: path, cwds: map[string]string{}}
	data, err := os.ReadFile(path)
	switch {
	case os.IsNotExist(err):
		return ix, nil
	case err != nil:
		return nil, fmt.Errorf("session index: %w", err)
	}
	if err := json.Unmarshal(data, &ix.cwds); err != nil {
		return nil, fmt.Errorf("session index %s: %w", path, err)
	}
	return ix, nil
}

// Cwd is the session's working directory, "" when unknown.
func (ix *CwdIndex) Cwd(id string) string {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return ix.cwds[id]
}

// Remember records a session's working directory; a failure to write the
// file only loses it for a later session/list.
func (ix *CwdIndex) Remember(id, cwd string) error {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if ix.cwds[id] == cwd {
		return nil
	}
	ix.cwds[id] = cwd
	data, err := json.Marshal(ix.cwds)
	if err != nil {
		return fmt.Errorf("session index: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(ix.path), 0o700); err != nil {
		return fmt.Errorf("session index: %w", err)
	}
	tmp := ix.path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		return fmt.Errorf("session index: %w", err)
	}
	if err := os.Rename(tmp, ix.path); err != nil {
		return fmt.Errorf("session index: %w", err)
	}
	return nil
}

package permission

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// RulesTrustFile is the store of trusted workspace rules files, under the
// state directory beside the MCP trust store: <stateDir>/trust/permissions.json.
const RulesTrustFile = "permissions.json"

// rulesTrust remembers, per workspace (its real path), the hash of the
// content of .agents/permissions.json the user trusted: the same model as
// the workspace .mcp.json entries. An edited file is untrusted again. No
// path: decisions last this run.
type rulesTrust struct {
	path string

	mu     sync.Mutex
	memory map[string]string // root → hash, when there is no path
	// The store as last read, and the stat it was read at: a decision
	// reads it again only when it changed.
	cached     *rulesTrustDoc
	cachedErr  error
	cachedStat fs.FileInfo
}

type rulesTrustDoc struct {
	Version    int                         `json:"version"`
	Workspaces map[string]rulesTrustRecord `json:"workspaces"`
}

type rulesTrustRecord struct {
	Hash      string    `json:"hash"`
	DecidedAt time.Time `json:"decidedAt"`
}

// trusted reports whether the workspace key (realRoot of its root) has
// this hash trusted.
func (t *rulesTrust) trusted(key, hash string) (bool, error) {
	if hash == "" {
		return false, nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.path == "" {
		return t.memory[key] == hash, nil
	}
	fi, statErr := os.Stat(t.path)
	if t.cached == nil || !sameStat(t.cachedStat, fi, statErr) {
		t.cached, t.cachedErr = t.read()
		t.cachedStat = fi
	}
	return t.cachedErr == nil && t.cached.Workspaces[key].Hash == hash, t.cachedErr
}

// remember trusts hash for the workspace key ("" forgets it).
func (t *rulesTrust) remember(key, hash string) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.cached = nil
	if t.path == "" {
		if t.memory == nil {
			t.memory = map[string]string{}
		}
		t.memory[key] = hash
		return nil
	}
	doc, err := t.read()
	if err != nil {
		doc = &rulesTrustDoc{Version: 1, Workspaces: map[string]rulesTrustRecord{}}
	}
	if hash == "" {
		delete(doc.Workspaces, key)
	} else {
		doc.Workspaces[key] = rulesTrustRecord{Hash: hash, DecidedAt: time.Now().UTC()}
	}
	data, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	dir := filepath.Dir(t.path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("workspace rules trust store: %w", err)
	}
	if err := writeAtomic(dir, RulesTrustFile, append(data, '\n'), func(name string) error { return os.Rename(name, t.path) }); err != nil {
		return fmt.Errorf("workspace rules trust store: %w", err)
	}
	return nil
}

func (t *rulesTrust) read() (*rulesTrustDoc, error) {
	doc := &rulesTrustDoc{Version: 1, Workspaces: map[string]rulesTrustRecord{}}
	data, err := os.ReadFile(t.path)
	if errors.Is(err, fs.ErrNotExist) {
		return doc, nil
	}
	if err != nil {
		return doc, fmt.Errorf("workspace rules trust store %s: %w", t.path, err)
	}
	if err := json.Unmarshal(data, doc); err != nil || doc.Version != 1 {
		return &rulesTrustDoc{Version: 1, Workspaces: map[string]rulesTrustRecord{}},
			fmt.Errorf("workspace rules trust store %s is corrupt or of another version (workspace rules files are untrusted)", t.path)
	}
	if doc.Workspaces == nil {
		doc.Workspaces = map[string]rulesTrustRecord{}
	}
	return doc, nil
}

// realRoot is the workspace's real path: the same folder reached through
// a symlink is the same workspace.
func realRoot(root string) string {
	abs, err := filepath.Abs(root)
	if err != nil {
		abs = root
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		return real
	}
	return filepath.Clean(abs)
}

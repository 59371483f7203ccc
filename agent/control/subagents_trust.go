package control

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

// SubagentTrustFile is the store's file under the state directory, beside
// the MCP servers' decisions (trust/).
const SubagentTrustFile = "trust/subagents.json"

// SubagentTrustStore keeps the "always" decisions about workspace
// subagent files: per workspace root, per file, the hash of the content
// the user trusted. A file whose content differs is untrusted again. It
// is small, rewritten whole (a temporary file renamed over it), readable
// by the user only.
type SubagentTrustStore struct {
	path string
	mu   sync.Mutex // one read-modify-write at a time in this process
}

type subagentTrustData struct {
	Version    int                                     `json:"version"`
	Workspaces map[string]map[string]subagentTrustItem `json:"workspaces"` // root → file path → decision
}

type subagentTrustItem struct {
	Hash      string    `json:"hash"`
	DecidedAt time.Time `json:"decidedAt"`
}

// NewSubagentTrustStore is the store under stateDir; nothing is read or
// created until it is used.
func NewSubagentTrustStore(stateDir string) *SubagentTrustStore {
	return &SubagentTrustStore{path: filepath.Join(stateDir, filepath.FromSlash(SubagentTrustFile))}
}

// trusted is root's decisions: file path → trusted hash. A store that
// cannot be read trusts nothing.
func (s *SubagentTrustStore) trusted(root string) map[string]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	d, _ := s.read()
	out := map[string]string{}
	for p, it := range d.Workspaces[root] {
		out[p] = it.Hash
	}
	return out
}

// set stores hash as root's decision about file ("" drops it).
func (s *SubagentTrustStore) set(root, file, hash string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	d, err := s.read()
	if err != nil {
		return err
	}
	if d.Workspaces[root] == nil {
		d.Workspaces[root] = map[string]subagentTrustItem{}
	}
	if hash == "" {
		delete(d.Workspaces[root], file)
	} else {
		d.Workspaces[root][file] = subagentTrustItem{Hash: hash, DecidedAt: time.Now().UTC()}
	}
	return s.write(d)
}

func (s *SubagentTrustStore) read() (subagentTrustData, error) {
	d := subagentTrustData{Version: 1, Workspaces: map[string]map[string]subagentTrustItem{}}
	b, err := os.ReadFile(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		return d, nil
	}
	if err != nil {
		return d, err
	}
	var got subagentTrustData
	if err := json.Unmarshal(b, &got); err != nil || got.Version != 1 {
		return d, fmt.Errorf("%s: not a version 1 trust file", s.path)
	}
	if got.Workspaces != nil {
		d.Workspaces = got.Workspaces
	}
	return d, nil
}

func (s *SubagentTrustStore) write(d subagentTrustData) error {
	b, err := json.MarshalIndent(d, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(s.path), 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(s.path), ".subagents-*.json")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after the rename: nothing left to remove
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), s.path)
}

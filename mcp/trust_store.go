package mcp

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"
)

// TrustStoreDir and TrustStoreFile place the store inside the state
// directory, in a directory of its own: the session listing only takes
// *.jsonl files, and a directory is never one.
const (
	TrustStoreDir  = "trust"
	TrustStoreFile = "mcp-servers.json"
)

// trustFileVersion is the store's format; another version is read as
// empty (with a warning), never guessed at.
const trustFileVersion = 1

// TrustStore keeps the "Allow always for this workspace" decisions: per
// workspace (its real path), per server name, the hash of the entry that
// was approved. An entry whose hash differs was edited since and is asked
// about again. The file is small and rewritten whole, atomically (a
// temporary file renamed over it), readable by the user only.
type TrustStore struct {
	path string
	mu   sync.Mutex // one read-modify-write at a time in this process
}

type trustFile struct {
	Version    int                       `json:"version"`
	Workspaces map[string]trustWorkspace `json:"workspaces"`
}

type trustWorkspace struct {
	Servers map[string]trustRecord `json:"servers"`
}

type trustRecord struct {
	Hash string `json:"hash"`
	// Files are the workspace files the entry executes, each bound by its
	// content (WorkspaceEntry.Files), and FilesBound says the record holds
	// them: a record written before files were bound (no FilesBound) still
	// trusts an entry that runs no workspace file, and asks about one that
	// does. The format stays version 1: an older agent-lsp reads these
	// records and ignores the new fields.
	Files      map[string]string `json:"files,omitempty"`
	FilesBound bool              `json:"filesBound,omitempty"`
	// Target is what was approved (command line or URL), for a person
	// reading the file; only Hash decides.
	Target    string    `json:"target"`
	DecidedAt time.Time `json:"decidedAt"`
}

// NewTrustStore returns the store under stateDir (the sessions
// directory): <stateDir>/trust/mcp-servers.json. Nothing is read or
// created until it is used.
func NewTrustStore(stateDir string) *TrustStore {
	return &TrustStore{path: filepath.Join(stateDir, TrustStoreDir, TrustStoreFile)}
}

// Path is the store's file: deleting it revokes every "always".
func (s *TrustStore) Path() string { return s.path }

// Trusted reports whether e was approved always for its workspace, with
// this very content and these very files. A store that cannot be read
// trusts nothing; the error says why (a warning for the user, not a
// failure).
func (s *TrustStore) Trusted(e WorkspaceEntry) (bool, error) {
	v, err := s.Check(e)
	return v.Trusted, err
}

// TrustVerdict is what the store says about an entry: trusted always, or
// not, with what changed since it was (nothing when it never was).
type TrustVerdict struct {
	Trusted bool
	Changes []string
}

// Check is Trusted with the reasons: each file that changed, appeared or
// went since the user allowed the entry always, or the entry itself.
func (s *TrustStore) Check(e WorkspaceEntry) (TrustVerdict, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f, err := s.read()
	if err != nil {
		return TrustVerdict{}, err
	}
	rec, ok := f.Workspaces[workspaceKey(e.Root)].Servers[e.Name]
	switch {
	case !ok:
		return TrustVerdict{}, nil
	case rec.Hash != e.Hash:
		return TrustVerdict{Changes: []string{"the entry changed since you allowed it"}}, nil
	case e.FilesUnbound != "":
		return TrustVerdict{}, nil // Describe says why it is asked again
	case !rec.FilesBound && len(e.BoundFiles()) > 0:
		return TrustVerdict{Changes: []string{"your earlier \"always\" did not cover the workspace files it runs"}}, nil
	}
	if changes := changesSince(rec.Files, e.Files, "since you allowed it"); len(changes) > 0 {
		return TrustVerdict{Changes: changes}, nil
	}
	return TrustVerdict{Trusted: true}, nil
}

// errFilesUnbound refuses an "always" for an entry whose files could not
// be bound.
var errFilesUnbound = errors.New("its workspace files could not be bound, so it is asked about at every start")

// Remember stores "always" for e in its workspace, replacing any earlier
// decision about the same server name, with the files e was shown with
// (bound when the entry was loaded: a file changed since is a change at
// the next start). An entry whose files could not be bound is not
// remembered. An unreadable store is replaced: the decisions it held could
// not be used anyway.
func (s *TrustStore) Remember(e WorkspaceEntry, now time.Time) error {
	if e.FilesUnbound != "" {
		return fmt.Errorf("%s: %w (%s)", e.Name, errFilesUnbound, e.FilesUnbound)
	}
	return s.update(func(f *trustFile) {
		key := workspaceKey(e.Root)
		ws := f.Workspaces[key]
		if ws.Servers == nil {
			ws.Servers = map[string]trustRecord{}
		}
		ws.Servers[e.Name] = trustRecord{Hash: e.Hash, Files: e.Files, FilesBound: true, Target: e.Target(), DecidedAt: now.UTC()}
		f.Workspaces[key] = ws
	})
}

// Forget removes the stored decision about the server name in the
// workspace root, if there is one.
func (s *TrustStore) Forget(root, name string) error {
	return s.update(func(f *trustFile) {
		key := workspaceKey(root)
		ws, ok := f.Workspaces[key]
		if !ok {
			return
		}
		delete(ws.Servers, name)
		if len(ws.Servers) == 0 {
			delete(f.Workspaces, key)
			return
		}
		f.Workspaces[key] = ws
	})
}

func (s *TrustStore) update(change func(*trustFile)) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	f, err := s.read()
	if err != nil {
		f = &trustFile{Version: trustFileVersion, Workspaces: map[string]trustWorkspace{}}
	}
	change(f)
	return s.write(f)
}

// read returns the file's decisions; a missing file is empty.
func (s *TrustStore) read() (*trustFile, error) {
	empty := &trustFile{Version: trustFileVersion, Workspaces: map[string]trustWorkspace{}}
	data, err := os.ReadFile(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		return empty, nil
	}
	if err != nil {
		return empty, fmt.Errorf("workspace trust store %s: %w", s.path, err)
	}
	var f trustFile
	if err := json.Unmarshal(data, &f); err != nil {
		return empty, fmt.Errorf("workspace trust store %s is corrupt (every workspace entry asks again): %w", s.path, err)
	}
	if f.Version != trustFileVersion {
		return empty, fmt.Errorf("workspace trust store %s has version %d, want %d (every workspace entry asks again)", s.path, f.Version, trustFileVersion)
	}
	if f.Workspaces == nil {
		f.Workspaces = map[string]trustWorkspace{}
	}
	return &f, nil
}

// write replaces the file atomically: a reader sees the old or the new
// decisions, never half of them.
func (s *TrustStore) write(f *trustFile) error {
	dir := filepath.Dir(s.path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("workspace trust store: %w", err)
	}
	data, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return fmt.Errorf("workspace trust store: encoding: %w", err)
	}
	tmp, err := os.CreateTemp(dir, TrustStoreFile+".*.tmp")
	if err != nil {
		return fmt.Errorf("workspace trust store: %w", err)
	}
	defer os.Remove(tmp.Name()) // after a successful rename there is nothing left to remove
	_, werr := tmp.Write(append(data, '\n'))
	serr := tmp.Sync()
	cerr := tmp.Close()
	if err := errors.Join(werr, serr, cerr); err != nil {
		return fmt.Errorf("workspace trust store: writing %s: %w", tmp.Name(), err)
	}
	if err := os.Rename(tmp.Name(), s.path); err != nil {
		return fmt.Errorf("workspace trust store: %w", err)
	}
	return nil
}

// workspaceKey is the workspace's real path: the same folder reached by a
// symlink or a relative path is the same workspace, and a look-alike path
// is not.
func workspaceKey(root string) string {
	abs, err := filepath.Abs(root)
	if err != nil {
		abs = root
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		return real
	}
	return filepath.Clean(abs)
}

// changesSince says what differs between the stored binding and the
// current one, one line a file ("<file> changed <since>"), sorted by path.
func changesSince(stored, now map[string]string, since string) []string {
	keys := map[string]bool{}
	for k := range stored {
		keys[k] = true
	}
	for k := range now {
		keys[k] = true
	}
	sorted := make([]string, 0, len(keys))
	for k := range keys {
		sorted = append(sorted, k)
	}
	sort.Strings(sorted)
	var out []string
	for _, k := range sorted {
		was, wasOK := stored[k]
		is, isOK := now[k]
		wasThere := wasOK && was != boundAbsent
		isThere := isOK && is != boundAbsent
		switch {
		case wasThere && isThere && was != is:
			out = append(out, k+" changed "+since)
		case !wasThere && isThere:
			out = append(out, k+" appeared "+since)
		case wasThere && !isThere:
			out = append(out, k+" is gone "+since)
		}
	}
	return out
}

package permission

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"syscall"
)

// maxRulesFile bounds a rules file: a bigger one is an error (no rules of
// it apply), never read whole into memory.
const maxRulesFile = 256 << 10

// WorkspaceRulesFile is the workspace's rules file, relative to its first
// root, read through an os.Root: a symlink out of the workspace is refused.
const WorkspaceRulesFile = ".agents/permissions.json"

// ruleFile is one rules file as last loaded. Before each decision its
// stat is compared with the one it was loaded at (cheap: one stat); a
// change reloads it, so an edit applies to the next call.
type ruleFile struct {
	src  RuleSource
	path string // the user's: absolute; the workspace's: WorkspaceRulesFile
	root string // the workspace's root ("" for the user's file)

	mu     sync.Mutex // guards the fields below
	stat   fs.FileInfo
	loaded bool
	state  fileState
}

// fileState is what a load found.
type fileState struct {
	exists bool
	rules  []Rule
	hash   string  // sha256 of the content, hex ("" when absent)
	errs   []error // the file's, or its lines'
}

// current returns the file's rules, reloading it when it changed.
func (f *ruleFile) current() fileState {
	f.mu.Lock()
	defer f.mu.Unlock()
	fi, err := f.statFile()
	if f.loaded && sameStat(f.stat, fi, err) {
		return f.state
	}
	f.stat, f.loaded = fi, true
	f.state = f.load(fi, err)
	return f.state
}

// invalidate makes the next current() reload (after our own write).
func (f *ruleFile) invalidate() {
	f.mu.Lock()
	f.loaded = false
	f.mu.Unlock()
}

func sameStat(old, now fs.FileInfo, err error) bool {
	if old == nil || now == nil {
		return old == nil && now == nil && err == nil
	}
	return os.SameFile(old, now) && old.Size() == now.Size() && old.ModTime().Equal(now.ModTime()) && old.Mode() == now.Mode()
}

func (f *ruleFile) statFile() (fs.FileInfo, error) {
	if f.root == "" {
		return os.Stat(f.path)
	}
	r, err := os.OpenRoot(f.root)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return r.Stat(f.path)
}

func (f *ruleFile) open() (*os.File, error) {
	if f.root == "" {
		return os.Open(f.path)
	}
	r, err := os.OpenRoot(f.root)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	// O_NONBLOCK: a FIFO put in the file's place after the stat must not
	// block the open (read then refuses it as no regular file).
	return r.OpenFile(f.path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}

// where names the file in errors.
func (f *ruleFile) where() string {
	if f.root == "" {
		return f.path
	}
	return filepath.Join(f.root, filepath.FromSlash(f.path))
}

func (f *ruleFile) load(fi fs.FileInfo, statErr error) fileState {
	if errors.Is(statErr, fs.ErrNotExist) {
		return fileState{}
	}
	data, err := f.read(fi, statErr)
	if err != nil {
		return fileState{exists: true, errs: []error{fmt.Errorf("%s rules file %s: %w", f.src, f.where(), err)}}
	}
	st := fileState{exists: true, hash: contentHash(data)}
	rules, lineErrs, err := parseRules(data, f.src)
	if err != nil {
		st.errs = []error{fmt.Errorf("%s rules file %s: %w", f.src, f.where(), err)}
		return st
	}
	st.rules = rules
	for _, e := range lineErrs {
		st.errs = append(st.errs, fmt.Errorf("%s rules file %s: %w", f.src, f.where(), e))
	}
	return st
}

// read returns the content of a regular file of at most maxRulesFile
// bytes; the user's must be owned by us.
func (f *ruleFile) read(fi fs.FileInfo, statErr error) ([]byte, error) {
	if statErr != nil {
		return nil, statErr
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("not a regular file (%v)", fi.Mode().Type())
	}
	if f.root == "" {
		if err := ownedByUs(fi); err != nil {
			return nil, err
		}
	}
	if fi.Size() > maxRulesFile {
		return nil, fmt.Errorf("%d bytes, more than the %d a rules file may have", fi.Size(), maxRulesFile)
	}
	h, err := f.open()
	if err != nil {
		return nil, err
	}
	defer h.Close()
	if now, err := h.Stat(); err != nil || !now.Mode().IsRegular() {
		return nil, fmt.Errorf("not a regular file once opened (it changed after the check)")
	}
	data, err := io.ReadAll(io.LimitReader(h, maxRulesFile+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxRulesFile {
		return nil, fmt.Errorf("more than the %d bytes a rules file may have", maxRulesFile)
	}
	return data, nil
}

// edited says what an edit replaced and wrote: the hashes of the
// content it read ("" when there was no file) and of the content it wrote.
type edited struct{ before, after string }

// edit rewrites the file with change applied to its lists, keeping its
// other fields. A file that exists but cannot be read or parsed is left
// alone: the user's text is never replaced by ours.
func (f *ruleFile) edit(change func(doc *rulesDoc) bool) (edited, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	defer func() { f.loaded = false }()
	fields := map[string]json.RawMessage{}
	var doc rulesDoc
	var done edited
	fi, statErr := f.statFile()
	if !errors.Is(statErr, fs.ErrNotExist) {
		data, err := f.read(fi, statErr)
		if err != nil {
			return done, fmt.Errorf("%s rules file %s: %w", f.src, f.where(), err)
		}
		done.before = contentHash(data)
		if len(data) > 0 {
			if err := json.Unmarshal(data, &fields); err != nil {
				return done, fmt.Errorf("%s rules file %s: not saved, fix it first: %w", f.src, f.where(), err)
			}
			if err := json.Unmarshal(data, &doc); err != nil {
				return done, fmt.Errorf("%s rules file %s: not saved, fix it first: %w", f.src, f.where(), err)
			}
		}
	}
	if !change(&doc) {
		done.after = done.before
		return done, nil
	}
	for key, list := range map[string][]string{"allow": doc.Allow, "deny": doc.Deny} {
		delete(fields, key)
		if len(list) > 0 {
			raw, _ := json.Marshal(list)
			fields[key] = raw
		}
	}
	data, err := json.MarshalIndent(fields, "", "  ")
	if err != nil {
		return done, err
	}
	data = append(data, '\n')
	if err := f.write(data); err != nil {
		return done, fmt.Errorf("%s rules file %s: %w", f.src, f.where(), err)
	}
	done.after = contentHash(data)
	return done, nil
}

// contentHash is the sha256 of a rules file's content, hex: what trusting
// a workspace file binds to.
func contentHash(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// write replaces the file atomically (a temporary file renamed over it).
func (f *ruleFile) write(data []byte) error {
	if f.root == "" {
		dir := filepath.Dir(f.path)
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return err
		}
		return writeAtomic(dir, filepath.Base(f.path), data, func(name string) error { return os.Rename(name, f.path) })
	}
	r, err := os.OpenRoot(f.root)
	if err != nil {
		return err
	}
	defer r.Close()
	dir := filepath.Dir(f.path)
	if err := r.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp := f.path + ".tmp"
	if err := r.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	if err := r.Rename(tmp, f.path); err != nil {
		_ = r.Remove(tmp)
		return err
	}
	return nil
}

// writeAtomic writes data to a new file in dir, then renames it with
// rename; the temporary file never outlives a failure.
func writeAtomic(dir, base string, data []byte, rename func(string) error) error {
	tmp, err := os.CreateTemp(dir, base+".*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // nothing left after a rename
	_, werr := tmp.Write(data)
	serr := tmp.Sync()
	cerr := tmp.Close()
	if err := errors.Join(werr, serr, cerr); err != nil {
		return err
	}
	return rename(tmp.Name())
}

// appendRule adds line to list unless there.
func appendRule(list []string, line string) ([]string, bool) {
	if slices.Contains(list, line) {
		return list, false
	}
	return append(list, line), true
}

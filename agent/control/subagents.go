package control

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/tools"
)

// SubagentDirs are where custom subagents are found, in a workspace root
// and in the user's home: ours, then the peers' layout.
var SubagentDirs = []string{".agents/agents", ".claude/agents"}

// The trust of a custom subagent (SubagentFile.Trust).
const (
	SubagentTrustUser      = "user"      // the user's own file (home): trusted
	SubagentTrustUntrusted = "untrusted" // a workspace file nobody trusted yet (or this content not)
	SubagentTrustOnce      = "once"      // trusted for this run, this content
	SubagentTrustAlways    = "always"    // trusted in this workspace, this content (SubagentTrustStore)
)

// SubagentFile is one custom subagent file as found.
type SubagentFile struct {
	agent.SubagentDef
	Path   string // absolute
	Source string // "workspace" or "user"
	Hash   string // sha256 of the file's content, hex: what trust is bound to
	Trust  string // SubagentTrust*
	// Problem says why the file is not offered although trusted (it does
	// not parse, a name taken by an earlier file); "" when it is.
	Problem string
}

// offered reports a file the task tool offers.
func (f SubagentFile) offered() bool { return f.Problem == "" && f.Trust != SubagentTrustUntrusted }

// SubagentCatalog is a workspace's custom subagents: the user's own
// (trusted) and the workspace's, offered only once the user trusted that
// very content, as a workspace's .mcp.json entries are. Files are read
// when it is made and at Reload, through an os.Root per directory (a
// symlink out of it is not followed); what is offered is exactly what was
// read and hashed then.
type SubagentCatalog struct {
	roots []string // workspace roots
	home  string   // "": no user files
	store *SubagentTrustStore

	mu    sync.Mutex
	files []SubagentFile
	once  map[string]string // this run's trust: path → hash
}

// NewSubagentCatalog reads the custom subagents of the workspace roots
// and of home ("" for none), trusting workspace files as store says (nil:
// only for this run).
func NewSubagentCatalog(roots []string, home string, store *SubagentTrustStore) *SubagentCatalog {
	c := &SubagentCatalog{roots: roots, home: home, store: store, once: map[string]string{}}
	c.Reload()
	return c
}

// Subagents are the offered ones, for the task tool (agent.TaskTool's
// Catalog).
func (c *SubagentCatalog) Subagents() []agent.SubagentDef {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []agent.SubagentDef
	for _, f := range c.files {
		if f.offered() {
			out = append(out, f.SubagentDef)
		}
	}
	return out
}

// Files are every file found, offered or not, in the order they are
// looked up (workspace first: a workspace's name shadows the user's).
func (c *SubagentCatalog) Files() []SubagentFile {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.files)
}

// Reload reads the files again; a changed workspace file is untrusted
// again until its new content is trusted.
func (c *SubagentCatalog) Reload() []SubagentFile {
	var found []SubagentFile
	for _, r := range c.roots {
		found = append(found, readSubagentDir(r, "workspace")...)
	}
	if c.home != "" {
		found = append(found, readSubagentDir(c.home, "user")...)
	}
	always := map[string]string{}
	if c.store != nil && len(c.roots) > 0 {
		always = c.store.trusted(c.roots[0])
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	seen := map[string]bool{}
	for i := range found {
		f := &found[i]
		switch {
		case f.Source == "user":
			f.Trust = SubagentTrustUser
		case always[f.Path] == f.Hash:
			f.Trust = SubagentTrustAlways
		case c.once[f.Path] == f.Hash:
			f.Trust = SubagentTrustOnce
		default:
			f.Trust = SubagentTrustUntrusted
		}
		if f.Problem == "" && seen[f.Name] {
			f.Problem = fmt.Sprintf("the name %q is taken by an earlier file", f.Name)
		}
		if f.Problem == "" {
			seen[f.Name] = true
		}
	}
	c.files = found
	return slices.Clone(found)
}

// Trust records the user's decision about the workspace file called name,
// bound to hash (the content the user was shown, from Files): "once",
// "always" (stored for the workspace) or "deny" (untrusted, the stored
// decision dropped). A hash that is not the file's current one is refused:
// the file changed since the user saw it.
func (c *SubagentCatalog) Trust(name, hash, decision string) ([]SubagentFile, error) {
	c.mu.Lock()
	i := slices.IndexFunc(c.files, func(f SubagentFile) bool { return f.Name == name && f.Source == "workspace" })
	var f SubagentFile
	if i >= 0 {
		f = c.files[i]
	}
	c.mu.Unlock()
	switch {
	case i < 0:
		return nil, invalidf("no workspace subagent %q", name)
	case hash != f.Hash:
		return nil, invalidf("subagent %q changed since it was shown (its hash is %s): look at it again", name, f.Hash)
	}
	switch decision {
	case SubagentTrustOnce, SubagentTrustAlways:
		c.mu.Lock()
		c.once[f.Path] = f.Hash
		c.mu.Unlock()
	case "deny":
		c.mu.Lock()
		delete(c.once, f.Path)
		c.mu.Unlock()
	default:
		return nil, invalidf("trust %q: want once, always or deny", decision)
	}
	if c.store != nil && len(c.roots) > 0 {
		var err error
		if decision == SubagentTrustAlways {
			err = c.store.set(c.roots[0], f.Path, f.Hash)
		} else if decision == "deny" {
			err = c.store.set(c.roots[0], f.Path, "")
		}
		if err != nil {
			return nil, fmt.Errorf("storing the decision: %w", err)
		}
	}
	return c.Reload(), nil
}

// readSubagentDir reads the *.md files of SubagentDirs under base,
// through an os.Root of each directory: a symlink that leaves it is not
// followed.
func readSubagentDir(base, source string) []SubagentFile {
	var out []SubagentFile
	for _, d := range SubagentDirs {
		dir := filepath.Join(base, filepath.FromSlash(d))
		root, err := os.OpenRoot(dir)
		if err != nil {
			continue // no such directory: nothing there
		}
		entries, err := fs.ReadDir(root.FS(), ".")
		if err != nil {
			root.Close()
			continue
		}
		sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
		for _, e := range entries {
			if e.IsDir() || path.Ext(e.Name()) != ".md" {
				continue
			}
			out = append(out, readSubagentFile(root, dir, e.Name(), source))
		}
		root.Close()
	}
	return out
}

func readSubagentFile(root *os.Root, dir, name, source string) SubagentFile {
	f := SubagentFile{Path: filepath.Join(dir, name), Source: source}
	f.Name = strings.TrimSuffix(name, ".md")
	data, err := readBounded(root, name)
	if err != nil {
		f.Problem = err.Error()
		return f
	}
	sum := sha256.Sum256(data)
	f.Hash = hex.EncodeToString(sum[:])
	def, err := agent.ParseSubagentFile(data, f.Name)
	if err != nil {
		f.Problem = err.Error()
		return f
	}
	f.SubagentDef = def
	return f
}

// readBounded reads name from root, at most agent.MaxSubagentFile bytes.
func readBounded(root *os.Root, name string) ([]byte, error) {
	return tools.ReadRootFile(root, name, agent.MaxSubagentFile)
}

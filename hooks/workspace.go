package hooks

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/agent-lsp/agent-lsp/tools"
)

// WorkspaceSettings is where a workspace keeps its hooks (a JSON object
// with a "hooks" key, as the user's --settings file).
const WorkspaceSettings = ".agents/settings.json"

// Workspace is a workspace's hooks as read: untrusted until the user
// approves them as they are (Hash: the settings file and every workspace
// script its commands name, so an edited script is asked about again).
type Workspace struct {
	Config  Config
	Hash    string
	Path    string   // the settings file
	Scripts []string // workspace files the commands run, relative
	Err     error    // the file exists but cannot be used
}

// ReadWorkspace reads root's hooks through the workspace sandbox (a
// settings file or script leading out of the workspace is not read). A
// workspace without the file has none: Config nil, Err nil.
func ReadWorkspace(ws *tools.Workspace) Workspace {
	if ws == nil || len(ws.Roots()) == 0 {
		return Workspace{}
	}
	root := ws.Roots()[0]
	w := Workspace{Path: filepath.Join(root, WorkspaceSettings)}
	data, err := ws.ReadFile(w.Path, maxSettingsFile)
	if os.IsNotExist(err) {
		return Workspace{}
	}
	if err != nil {
		w.Err = fmt.Errorf("%s: %w", WorkspaceSettings, err)
		return w
	}
	var s struct {
		Hooks json.RawMessage `json:"hooks"`
	}
	if err := json.Unmarshal(data, &s); err != nil {
		w.Err = fmt.Errorf("%s: %w", WorkspaceSettings, err)
		return w
	}
	if w.Config, err = Parse(s.Hooks); err != nil {
		w.Err = fmt.Errorf("%s: %w", WorkspaceSettings, err)
		return w
	}
	h := sha256.New()
	h.Write(data)
	for _, rel := range scriptsOf(w.Config, root, ws) {
		text, err := ws.ReadFile(filepath.Join(root, rel), maxSettingsFile)
		if err != nil {
			continue
		}
		w.Scripts = append(w.Scripts, rel)
		fmt.Fprintf(h, "\x00%s\x00%d\x00", rel, len(text))
		h.Write(text)
	}
	w.Hash = "sha256:" + hex.EncodeToString(h.Sum(nil))
	return w
}

// scriptsOf lists the workspace files the hooks' commands name (a word
// that is a file inside the workspace, $CLAUDE_PROJECT_DIR read as the
// root), relative, sorted, each once.
func scriptsOf(c Config, root string, ws *tools.Workspace) []string {
	seen := map[string]bool{}
	for _, ms := range c {
		for _, m := range ms {
			for _, h := range m.Hooks {
				for _, word := range strings.Fields(h.Command) {
					word = strings.Trim(word, `"'`)
					word = strings.NewReplacer("${CLAUDE_PROJECT_DIR}", root, "$CLAUDE_PROJECT_DIR", root).Replace(word)
					if !filepath.IsAbs(word) {
						word = filepath.Join(root, word)
					}
					real, err := ws.Resolve(word)
					if err != nil {
						continue
					}
					if fi, err := ws.Stat(real); err == nil && fi.Mode().IsRegular() {
						seen[ws.Rel(real)] = true
					}
				}
			}
		}
	}
	out := make([]string, 0, len(seen))
	for rel := range seen {
		out = append(out, rel)
	}
	sort.Strings(out)
	return out
}

package tools

import (
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/agent-lsp/agent-lsp/permission"
)

// walkCredentials is the credential check of a walk (grep from above a
// store must not read it), made per directory: CredentialRead on every
// file built a path string per store per file, 13% of grep's CPU. A store
// (permission.CredentialStores) is a place; a directory that is neither
// in one nor above one holds none of its files, so its files are judged by
// name alone (permission.CredentialFile), which costs no allocation. A
// directory in or above a store gets the whole check for every file.
type walkCredentials struct {
	full   func(abs string) bool // CredentialRead, home looked up once
	roots  []string              // every store is at or below one of these: the homes and /etc
	stores []string
}

func newWalkCredentials() *walkCredentials {
	c := &walkCredentials{full: credentialReads(), roots: []string{"/etc"}}
	for _, home := range credentialHomes() {
		c.stores = append(c.stores, permission.CredentialStores(home)...)
		if strings.HasPrefix(home, "/") {
			c.roots = append(c.roots, path.Clean(home))
		}
	}
	return c
}

// file reports whether the file name in the directory dirAbs (absolute,
// clean) is a credential the walk must not read.
func (c *walkCredentials) file(dirAbs, name string) bool {
	if os.PathSeparator != '/' || c.mayHoldStore(dirAbs) {
		return c.full(filepath.Join(dirAbs, name))
	}
	return permission.CredentialFile(name)
}

// mayHoldStore reports whether a file directly in dir can be in a store:
// dir is in a store, or a store is below dir.
func (c *walkCredentials) mayHoldStore(dir string) bool {
	if dir == "/" {
		return true
	}
	near := false
	for _, r := range c.roots {
		if related(dir, r) {
			near = true
			break
		}
	}
	if !near {
		return false // every store is within a root; dir is neither in nor above any root
	}
	for _, s := range c.stores {
		if related(dir, s) {
			return true
		}
	}
	return false
}

// related reports whether a and b are the same path or one is below the
// other (both absolute and clean, neither "/").
func related(a, b string) bool {
	if len(a) > len(b) {
		a, b = b, a
	}
	return strings.HasPrefix(b, a) && (len(b) == len(a) || b[len(a)] == '/')
}

// isCredential is c's verdict on the walked file f.
func (f walkedFile) isCredential(c *walkCredentials) bool {
	if f.dir == nil {
		return c.full(f.Abs) // the start itself, a file
	}
	return c.file(f.dir.abs, f.name)
}

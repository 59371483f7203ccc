package lsp

import (
	"fmt"
	"net/url"
	"path/filepath"
	"runtime"
	"strings"

	"go.lsp.dev/uri"
)

// uriToPath turns a file:// URI into a cleaned absolute path. Other
// schemes (untitled:, git:) have no file and are an error.
func uriToPath(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", fmt.Errorf("bad URI %q: %w", raw, err)
	}
	if u.Scheme != "file" {
		return "", fmt.Errorf("URI %q is not a file: URI", raw)
	}
	p := u.Path
	if runtime.GOOS == "windows" {
		// file:///C:/x has the path /C:/x.
		p = strings.TrimPrefix(p, "/")
	}
	p = filepath.FromSlash(p)
	if !filepath.IsAbs(p) {
		return "", fmt.Errorf("URI %q has no absolute path", raw)
	}
	return filepath.Clean(p), nil
}

// pathToURI is the file:// URI of an absolute path.
func pathToURI(path string) uri.URI { return uri.File(path) }

// canonicalPath resolves the symlinks of an existing path, so the editor's
// name for a file and the tools' resolved name meet in one key.
func canonicalPath(path string) string {
	if real, err := filepath.EvalSymlinks(path); err == nil {
		return real
	}
	return filepath.Clean(path)
}

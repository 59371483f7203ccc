package mcp

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"unicode"

	"github.com/agent-lsp/agent-lsp/permission"
)

// Workspace trust. A repository's .mcp.json is written by whoever wrote the
// repository: an entry starts a program, or sends headers to a URL, and its
// ${VAR}s would pull the user's credentials into either. So an entry is
// parsed, shown and hashed as written, and expanded and started only once
// the user trusted it: for this run, or always for this workspace (a
// TrustStore entry, bound to the entry's hash and to the content of the
// workspace files it runs, trust_files.go, so that an edited entry or a
// swapped script asks again). Configuration the user gave
// (initializationOptions, --mcp) is trusted as it is.

// TrustDecision is the user's answer about one workspace entry.
type TrustDecision string

const (
	// TrustAllow starts the entry for this run only.
	TrustAllow TrustDecision = "allow"
	// TrustAlways starts it and remembers it for this workspace, as long
	// as the entry is unchanged.
	TrustAlways TrustDecision = "always"
	// TrustDeny keeps it from starting (and forgets an "always").
	TrustDeny TrustDecision = "deny"
)

// ParseTrustDecision reads "allow", "always" or "deny".
func ParseTrustDecision(s string) (TrustDecision, error) {
	switch d := TrustDecision(strings.ToLower(strings.TrimSpace(s))); d {
	case TrustAllow, TrustAlways, TrustDeny:
		return d, nil
	}
	return "", fmt.Errorf("decision must be %q, %q or %q, got %q", TrustAllow, TrustAlways, TrustDeny, s)
}

// StateUntrusted is the state of a workspace entry the user has not
// trusted: it is not started and nothing in it was expanded.
const StateUntrusted State = "untrusted"

// WorkspaceEntry is one entry of the workspace's .mcp.json, as written.
// Its fields are for showing the user what trusting it means; nothing in
// them is expanded.
type WorkspaceEntry struct {
	Name   string
	Source string // the file it was read from
	Root   string // the workspace root, as given
	Type   string // TypeStdio, TypeHTTP or TypeSSE
	// Command and Args (stdio) or URL (http, sse), as written.
	Command string
	Args    []string
	URL     string
	// EnvKeys are the variables it sets for its process, HeaderKeys the
	// headers it sends (names only: values may hold ${VAR}s).
	EnvKeys    []string
	HeaderKeys []string
	// Variables are the environment variables its ${VAR}s would expand:
	// what trusting it hands over.
	Variables []string
	// Hash identifies the entry's content: sha256 of its name and its
	// canonical JSON (key order and spacing do not count, every value
	// does).
	Hash string
	// Files are the workspace files it executes, by workspace-relative
	// path, each bound by its content (trust_files.go): an "always" holds
	// them, and a change asks again. FilesUnbound, when set, says why they
	// could not be bound: the entry is then asked about at every start.
	Files        map[string]string
	FilesUnbound string
	// Changes say what changed since the user allowed the entry always
	// (TrustStore.Check), for the question.
	Changes []string

	parsed parsedEntry
}

func newWorkspaceEntry(e parsedEntry, root string) WorkspaceEntry {
	bound := bindFiles(e.raw, root)
	return WorkspaceEntry{
		Name: e.Name, Source: e.Source, Root: root, Type: e.raw.Type,
		Command: e.raw.Command, Args: append([]string(nil), e.raw.Args...), URL: e.raw.URL,
		EnvKeys: sortedKeys(e.raw.Env), HeaderKeys: sortedKeys(e.raw.Headers),
		Variables: e.variables(), Hash: entryHash(e.Name, e.json),
		Files: bound.Files, FilesUnbound: bound.Unbound, parsed: e,
	}
}

// WithChanges is the entry with what changed since it was allowed, for
// the question that asks about it again.
func (e WorkspaceEntry) WithChanges(changes []string) WorkspaceEntry {
	e.Changes = changes
	return e
}

// Rebind binds the entry's files again, as they are now: the entry to
// start, and what changed since e was bound (shown to the user). A
// decision taken on e must not start files the user was not asked about:
// the daemon asks again when changes is not empty.
func (e WorkspaceEntry) Rebind() (fresh WorkspaceEntry, changes []string) {
	bound := bindFiles(e.parsed.raw, e.Root)
	fresh = e
	fresh.Files, fresh.FilesUnbound, fresh.Changes = bound.Files, bound.Unbound, nil
	if bound.Unbound != "" && e.FilesUnbound == "" {
		return fresh, []string{bound.Unbound}
	}
	return fresh, changesSince(e.Files, bound.Files, "since you were asked")
}

// BoundFiles are the workspace files the entry executes that a change
// of asks again, sorted (what the popup lists).
func (e WorkspaceEntry) BoundFiles() []string {
	var out []string
	for k, v := range e.Files {
		if v != boundAbsent {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// Config expands the entry (its variables moved into the vault first, so
// that no other child inherits them) and validates it: call it only once
// the user trusted the entry. getenv nil is tools.Getenv.
func (e WorkspaceEntry) Config(getenv func(string) string) (ServerConfig, error) {
	if getenv == nil {
		return ServerConfig{}, fmt.Errorf("server %q: no environment to expand from", e.Name)
	}
	return e.parsed.expand(getenv, e.Root)
}

// Target is what the entry runs or reaches, for one line of a question:
// the command line (each word quoted when needed) or the URL, rendered by
// permission.VisibleLine.
func (e WorkspaceEntry) Target() string {
	if e.Type != TypeStdio {
		return printable(e.URL)
	}
	words := append([]string{e.Command}, e.Args...)
	for i, w := range words {
		words[i] = quoteWord(w)
	}
	return strings.Join(words, " ")
}

// Describe is the question's body: which file wants what, with which
// environment (values shown, secrets by name), which workspace files it
// runs (and which of them changed since the user allowed it), which
// loader variables point into the workspace, and which of the user's
// variables it would receive. Everything from the repository goes
// through permission.VisibleLine: it must not repaint a terminal or hide
// what follows.
func (e WorkspaceEntry) Describe() string {
	var b strings.Builder
	file := printable(filepath.Base(e.Source))
	if e.Type == TypeStdio {
		fmt.Fprintf(&b, "The workspace's %s wants to start the MCP server %s:\n  $ %s\n", file, quoteWord(e.Name), e.Target())
		lines, warnings := e.environment()
		if len(lines) > 0 {
			fmt.Fprintf(&b, "  with environment:\n    %s\n", strings.Join(lines, "\n    "))
		}
		for _, w := range warnings {
			fmt.Fprintf(&b, "  ⚠ %s\n", w)
		}
		if files := e.BoundFiles(); len(files) > 0 {
			fmt.Fprintf(&b, "  It runs workspace files (\"always\" holds their content): %s\n", printableList(files))
		}
		if e.FilesUnbound != "" {
			fmt.Fprintf(&b, "  ⚠ %s: it is asked about at every start\n", printable(e.FilesUnbound))
		}
	} else {
		fmt.Fprintf(&b, "The workspace's %s wants to connect to the MCP server %s at %s\n", file, quoteWord(e.Name), e.Target())
		if len(e.HeaderKeys) > 0 {
			fmt.Fprintf(&b, "  sending headers: %s\n", printableList(e.HeaderKeys))
		}
	}
	for _, c := range e.Changes {
		fmt.Fprintf(&b, "  ⚠ %s\n", printable(c))
	}
	if len(e.Variables) > 0 {
		fmt.Fprintf(&b, "  It would receive your environment variables: %s\n", printableList(e.Variables))
	} else {
		b.WriteString("  It references none of your environment variables.\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// entryHash is "sha256:<hex>" of the name and the canonical form of the
// entry's JSON: decoding into generic values and encoding again sorts the
// object keys and drops the spacing.
func entryHash(name string, raw json.RawMessage) string {
	canonical := []byte(raw)
	var v any
	if err := json.Unmarshal(raw, &v); err == nil {
		if c, err := json.Marshal(v); err == nil {
			canonical = c
		}
	}
	h := sha256.New()
	h.Write([]byte(name))
	h.Write([]byte{0})
	h.Write(canonical)
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

func sortedKeys(m map[string]string) []string {
	if len(m) == 0 {
		return nil
	}
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// quoteWord leaves a word of safe characters as it is and puts any other
// in single quotes, as a shell would read it, its invisible characters
// written visibly (permission.VisibleLine).
func quoteWord(w string) string {
	if w != "" && strings.IndexFunc(w, func(r rune) bool {
		return !(r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("-_./:=@%+,", r)))
	}) < 0 {
		return w
	}
	return "'" + permission.VisibleLine(strings.ReplaceAll(w, "'", `'\''`), 0) + "'"
}

// printable is s on one line with every invisible character written
// visibly.
func printable(s string) string { return permission.VisibleLine(s, 0) }

func printableList(names []string) string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = printable(n)
	}
	return strings.Join(out, ", ")
}

package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/agent-lsp/agent-lsp/tools"
	"github.com/agent-lsp/agent-lsp/tools/editorjson"
)

// Transport types of a ServerConfig.
const (
	TypeStdio = "stdio"
	TypeHTTP  = "http" // Streamable HTTP
	TypeSSE   = "sse"  // the older HTTP+SSE transport
)

// DefaultCallTimeout bounds one tool call unless a server sets its own.
const DefaultCallTimeout = 2 * time.Minute

// DemoServerName is the name `--mcp=demo` mounts the built-in demo under.
const DemoServerName = "demo"

// ServerConfig is one configured MCP server.
type ServerConfig struct {
	Name string
	// Type is TypeStdio (Command, Args, Env, Cwd) or TypeHTTP / TypeSSE
	// (URL, Headers).
	Type    string
	Command string
	Args    []string
	Env     map[string]string // added to the (scrubbed) environment
	Cwd     string            // absolute; empty: the workspace root
	URL     string
	Headers map[string]string // e.g. Authorization; never logged
	// Timeout bounds one call; zero means DefaultCallTimeout.
	Timeout time.Duration
	// Source says where the entry came from, for messages: ".mcp.json",
	// "initializationOptions", "--mcp".
	Source string
}

// ConfigFileName is the workspace file Claude Code also reads.
const ConfigFileName = ".mcp.json"

// LoadedConfig is the MCP configuration, split by who wrote it.
type LoadedConfig struct {
	// Servers are the entries the user gave (initializationOptions,
	// --mcp): trusted, ${VAR}s expanded, ready to start. Sorted by name.
	Servers []ServerConfig
	// Workspace are the entries of <root>/.mcp.json that no entry of the
	// user overrides by name: written by whoever wrote the repository, so
	// untrusted until the user decides (trust.go). Kept unexpanded. Sorted
	// by name.
	Workspace []WorkspaceEntry
	// Errors name each bad entry (source, server, field); the good
	// entries are loaded regardless.
	Errors []error
}

// LoadConfig reads the MCP server configuration, later sources winning by
// server name: <workspaceRoot>/.mcp.json, then initOptions (the LSP
// initialize request's whole `initializationOptions` object; its
// `mcpServers` member has the .mcp.json shape), then the chat's --mcp flag
// values (each a command line, `name=command line`, or `demo` for the
// built-in demo server).
//
// The user's entries have ${VAR} and ${VAR:-default} expanded from getenv
// (nil: tools.Getenv), after the variables they name were moved into the
// vault (tools.HideEnv): other children never see them. The workspace's
// entries are parsed and checked for shape only; nothing in them is
// expanded until WorkspaceEntry.Config, which the caller runs once the user
// trusted the entry.
func LoadConfig(workspaceRoot string, initOptions json.RawMessage, flags []string, getenv func(string) string) LoadedConfig {
	if getenv == nil {
		getenv = tools.Getenv
	}
	var out LoadedConfig
	workspace := map[string]WorkspaceEntry{}
	if workspaceRoot != "" {
		path := filepath.Join(workspaceRoot, ConfigFileName)
		data, err := readInRoot(workspaceRoot, ConfigFileName)
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			out.Errors = append(out.Errors, fmt.Errorf("%s: %w", path, err))
		default:
			entries, errs := parseServers(path, data, workspaceRoot)
			out.Errors = append(out.Errors, errs...)
			for _, e := range entries {
				workspace[e.Name] = newWorkspaceEntry(e, workspaceRoot)
			}
		}
	}
	user := map[string]ServerConfig{}
	if len(bytes.TrimSpace(initOptions)) > 0 && string(bytes.TrimSpace(initOptions)) != "null" {
		var opts struct {
			MCPServers json.RawMessage `json:"mcpServers"`
		}
		if err := editorjson.Unmarshal(initOptions, &opts); err != nil {
			out.Errors = append(out.Errors, fmt.Errorf("initializationOptions: %w", err))
		} else if len(opts.MCPServers) > 0 {
			wrapped := append(append([]byte(`{"mcpServers":`), opts.MCPServers...), '}')
			entries, errs := parseServers("initializationOptions", wrapped, workspaceRoot)
			out.Errors = append(out.Errors, errs...)
			for _, e := range entries {
				delete(workspace, e.Name)
				cfg, err := e.expand(getenv, workspaceRoot)
				if err != nil {
					out.Errors = append(out.Errors, err)
					continue
				}
				user[e.Name] = cfg
			}
		}
	}
	cfgs, errs := parseFlags(flags, workspaceRoot, getenv)
	out.Errors = append(out.Errors, errs...)
	for _, c := range cfgs {
		delete(workspace, c.Name)
		user[c.Name] = c
	}

	for _, c := range user {
		out.Servers = append(out.Servers, c)
	}
	sort.Slice(out.Servers, func(i, j int) bool { return out.Servers[i].Name < out.Servers[j].Name })
	for _, e := range workspace {
		out.Workspace = append(out.Workspace, e)
	}
	sort.Slice(out.Workspace, func(i, j int) bool { return out.Workspace[i].Name < out.Workspace[j].Name })
	return out
}

// rawServer is one mcpServers entry with every field kept raw, so a field
// of the wrong type is reported by name.
type rawServer struct {
	Type    json.RawMessage `json:"type"`
	Command json.RawMessage `json:"command"`
	Args    json.RawMessage `json:"args"`
	Env     json.RawMessage `json:"env"`
	Cwd     json.RawMessage `json:"cwd"`
	URL     json.RawMessage `json:"url"`
	Headers json.RawMessage `json:"headers"`
	Timeout json.RawMessage `json:"timeout"` // milliseconds, or a Go duration string
}

// parsedEntry is one entry as written: its strings not expanded yet, and
// the entry's own JSON (for the trust hash).
type parsedEntry struct {
	Name   string
	Source string
	raw    ServerConfig // every string as written, ${VAR}s included
	json   json.RawMessage
}

func parseServers(source string, data []byte, root string) ([]parsedEntry, []error) {
	var file struct {
		MCPServers map[string]json.RawMessage `json:"mcpServers"`
	}
	if err := editorjson.Unmarshal(data, &file); err != nil {
		return nil, []error{fmt.Errorf("%s: %w", source, err)}
	}
	names := make([]string, 0, len(file.MCPServers))
	for name := range file.MCPServers {
		names = append(names, name)
	}
	sort.Strings(names)
	var out []parsedEntry
	var errs []error
	for _, name := range names {
		e, err := parseServer(source, name, file.MCPServers[name])
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, e)
	}
	return out, errs
}

// parseServer decodes one entry without expanding anything: the types of
// the fields and the transport's required fields are checked here, the
// values (URL scheme, working directory) after expansion.
func parseServer(source, name string, data json.RawMessage) (parsedEntry, error) {
	fail := func(field string, err error) (parsedEntry, error) {
		return parsedEntry{}, fmt.Errorf("%s: server %q: field %q: %w", source, name, field, err)
	}
	if strings.TrimSpace(name) == "" {
		return fail("name", errors.New("must not be empty"))
	}
	var raw rawServer
	if err := editorjson.Unmarshal(data, &raw); err != nil {
		return parsedEntry{}, fmt.Errorf("%s: server %q: must be an object: %w", source, name, err)
	}
	cfg := ServerConfig{Name: name, Source: source}
	str := func(r json.RawMessage, dst *string) error {
		if len(r) == 0 || string(r) == "null" {
			return nil
		}
		if err := json.Unmarshal(r, dst); err != nil {
			return fmt.Errorf("must be a string")
		}
		return nil
	}
	strMap := func(r json.RawMessage) (map[string]string, error) {
		if len(r) == 0 || string(r) == "null" {
			return nil, nil
		}
		var m map[string]string
		if err := editorjson.Unmarshal(r, &m); err != nil {
			return nil, fmt.Errorf("must be an object of strings")
		}
		return m, nil
	}
	var err error
	for _, f := range []struct {
		field string
		raw   json.RawMessage
		dst   *string
	}{{"type", raw.Type, &cfg.Type}, {"command", raw.Command, &cfg.Command}, {"cwd", raw.Cwd, &cfg.Cwd}, {"url", raw.URL, &cfg.URL}} {
		if err := str(f.raw, f.dst); err != nil {
			return fail(f.field, err)
		}
	}
	if len(raw.Args) > 0 && string(raw.Args) != "null" {
		if err := json.Unmarshal(raw.Args, &cfg.Args); err != nil {
			return fail("args", errors.New("must be an array of strings"))
		}
	}
	if cfg.Env, err = strMap(raw.Env); err != nil {
		return fail("env", err)
	}
	if cfg.Headers, err = strMap(raw.Headers); err != nil {
		return fail("headers", err)
	}
	if cfg.Timeout, err = parseTimeout(raw.Timeout); err != nil {
		return fail("timeout", err)
	}
	if cfg.Type == "" {
		cfg.Type = TypeStdio
		if cfg.Command == "" && cfg.URL != "" {
			cfg.Type = TypeHTTP
		}
	}
	if field, err := cfg.checkShape(); err != nil {
		return fail(field, err)
	}
	return parsedEntry{Name: name, Source: source, raw: cfg, json: data}, nil
}

// checkShape checks what can be checked before expansion: a known
// transport and its required field.
func (c *ServerConfig) checkShape() (string, error) {
	switch c.Type {
	case TypeStdio:
		if c.Command == "" {
			return "command", errors.New("required for a stdio server")
		}
	case TypeHTTP, TypeSSE:
		if c.URL == "" {
			return "url", fmt.Errorf("required for a %s server", c.Type)
		}
	default:
		return "type", fmt.Errorf("must be %q, %q or %q, got %q", TypeStdio, TypeHTTP, TypeSSE, c.Type)
	}
	return "", nil
}

// variables are the names of the environment variables the entry's
// strings reference, sorted, each once.
func (e parsedEntry) variables() []string {
	seen := map[string]bool{}
	for _, s := range e.raw.strings() {
		for _, n := range referencedVars(s) {
			seen[n] = true
		}
	}
	names := make([]string, 0, len(seen))
	for n := range seen {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// strings are every string of the configuration that is expanded.
func (c ServerConfig) strings() []string {
	out := []string{c.Command, c.Cwd, c.URL}
	out = append(out, c.Args...)
	for _, v := range c.Env {
		out = append(out, v)
	}
	for _, v := range c.Headers {
		out = append(out, v)
	}
	return out
}

// expand hides the variables the entry references (tools.HideEnv: from
// now on no child inherits them), then expands its strings through getenv
// and validates the result.
func (e parsedEntry) expand(getenv func(string) string, root string) (ServerConfig, error) {
	tools.HideEnv(e.variables()...)
	fail := func(field string, err error) (ServerConfig, error) {
		return ServerConfig{}, fmt.Errorf("%s: server %q: field %q: %w", e.Source, e.Name, field, err)
	}
	x := expander{getenv: getenv}
	cfg := e.raw
	var err error
	for _, f := range []struct {
		field string
		dst   *string
	}{{"command", &cfg.Command}, {"cwd", &cfg.Cwd}, {"url", &cfg.URL}} {
		if *f.dst, err = x.expand(*f.dst); err != nil {
			return fail(f.field, err)
		}
	}
	if len(cfg.Args) > 0 {
		args := make([]string, len(cfg.Args))
		for i, a := range cfg.Args {
			if args[i], err = x.expand(a); err != nil {
				return fail("args", err)
			}
		}
		cfg.Args = args
	}
	expandMap := func(m map[string]string) (map[string]string, error) {
		if m == nil {
			return nil, nil
		}
		out := make(map[string]string, len(m))
		for k, v := range m {
			ev, err := x.expand(v)
			if err != nil {
				return nil, fmt.Errorf("%q: %w", k, err)
			}
			out[k] = ev
		}
		return out, nil
	}
	if cfg.Env, err = expandMap(cfg.Env); err != nil {
		return fail("env", err)
	}
	if cfg.Headers, err = expandMap(cfg.Headers); err != nil {
		return fail("headers", err)
	}
	if field, err := cfg.validate(root); err != nil {
		return fail(field, err)
	}
	return cfg, nil
}

// validate checks the fields the transport needs and makes Cwd absolute.
// It returns the offending field with the error.
func (c *ServerConfig) validate(root string) (string, error) {
	switch c.Type {
	case TypeStdio:
		if c.Command == "" {
			return "command", errors.New("required for a stdio server")
		}
		if c.Cwd != "" && !filepath.IsAbs(c.Cwd) && root != "" {
			c.Cwd = filepath.Join(root, c.Cwd)
		}
	case TypeHTTP, TypeSSE:
		if !strings.HasPrefix(c.URL, "http://") && !strings.HasPrefix(c.URL, "https://") {
			return "url", fmt.Errorf("must be an http:// or https:// URL for a %s server, got %q", c.Type, c.URL)
		}
	default:
		return "type", fmt.Errorf("must be %q, %q or %q, got %q", TypeStdio, TypeHTTP, TypeSSE, c.Type)
	}
	return "", nil
}

func parseTimeout(r json.RawMessage) (time.Duration, error) {
	if len(r) == 0 || string(r) == "null" {
		return 0, nil
	}
	var ms float64
	if err := json.Unmarshal(r, &ms); err == nil {
		if ms <= 0 {
			return 0, errors.New("must be positive")
		}
		return time.Duration(ms * float64(time.Millisecond)), nil
	}
	var s string
	if err := json.Unmarshal(r, &s); err != nil {
		return 0, errors.New(`must be milliseconds or a duration string like "90s"`)
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf(`must be milliseconds or a positive duration like "90s", got %q`, s)
	}
	return d, nil
}

// expander does Claude Code's ${VAR} and ${VAR:-default} expansion. A
// variable that is unset and has no default is an error: a server started
// with an empty token fails later in a far more confusing way.
type expander struct{ getenv func(string) string }

func (x expander) expand(s string) (string, error) {
	var b strings.Builder
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			b.WriteString(s)
			return b.String(), nil
		}
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			return "", fmt.Errorf("unterminated ${ in %q", s)
		}
		b.WriteString(s[:i])
		expr := s[i+2 : i+j]
		name, def, hasDef := strings.Cut(expr, ":-")
		if name == "" {
			return "", fmt.Errorf("empty variable name in %q", s)
		}
		v := x.getenv(name)
		switch {
		case v != "":
			b.WriteString(v)
		case hasDef:
			b.WriteString(def)
		default:
			return "", fmt.Errorf("environment variable %s is not set (use ${%s:-default} for a default)", name, name)
		}
		s = s[i+j+1:]
	}
}

// referencedVars are the variable names s references as ${NAME} or
// ${NAME:-default}, in order; a malformed reference names nothing (its
// expansion fails anyway).
func referencedVars(s string) []string {
	var out []string
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			return out
		}
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			return out
		}
		name, _, _ := strings.Cut(s[i+2:i+j], ":-")
		if name != "" {
			out = append(out, name)
		}
		s = s[i+j+1:]
	}
}

// maxConfigBytes bounds a workspace configuration file: it is read whole.
const maxConfigBytes = 4 << 20

// readInRoot reads name inside root through the workspace's os.Root, so a
// hostile repository's .mcp.json cannot be a symlink that makes us read
// (and show the user as "workspace configuration") a file from outside it,
// nor a FIFO that blocks the daemon's start.
func readInRoot(root, name string) ([]byte, error) {
	ws, err := tools.NewWorkspace(root)
	if err != nil {
		return nil, err
	}
	defer ws.Close()
	abs, err := ws.Resolve(name)
	if err != nil {
		return nil, err
	}
	return ws.ReadFile(abs, maxConfigBytes)
}

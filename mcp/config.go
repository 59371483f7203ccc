package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
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

// LoadConfig merges the MCP server configuration, later sources winning by
// server name: <workspaceRoot>/.mcp.json, then initOptions (the LSP
// initialize request's whole `initializationOptions` object; its
// `mcpServers` member has the .mcp.json shape), then the chat's --mcp flag
// values (each a command line, `name=command line`, or `demo` for the
// built-in demo server). ${VAR} and ${VAR:-default} are expanded from getenv
// (nil: os.Getenv). Every bad entry is an error naming its source, server
// and field; the good entries are returned regardless. The result is sorted
// by name.
func LoadConfig(workspaceRoot string, initOptions json.RawMessage, flags []string, getenv func(string) string) ([]ServerConfig, []error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	byName := map[string]ServerConfig{}
	var errs []error
	add := func(cfgs []ServerConfig, e []error) {
		for _, c := range cfgs {
			byName[c.Name] = c
		}
		errs = append(errs, e...)
	}
	if workspaceRoot != "" {
		path := filepath.Join(workspaceRoot, ConfigFileName)
		data, err := os.ReadFile(path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			errs = append(errs, fmt.Errorf("%s: %w", path, err))
		default:
			add(parseServers(path, data, workspaceRoot, getenv))
		}
	}
	if len(bytes.TrimSpace(initOptions)) > 0 && string(bytes.TrimSpace(initOptions)) != "null" {
		var opts struct {
			MCPServers json.RawMessage `json:"mcpServers"`
		}
		if err := json.Unmarshal(initOptions, &opts); err != nil {
			errs = append(errs, fmt.Errorf("initializationOptions: %w", err))
		} else if len(opts.MCPServers) > 0 {
			wrapped := append(append([]byte(`{"mcpServers":`), opts.MCPServers...), '}')
			add(parseServers("initializationOptions", wrapped, workspaceRoot, getenv))
		}
	}
	add(parseFlags(flags, workspaceRoot, getenv))

	out := make([]ServerConfig, 0, len(byName))
	for _, c := range byName {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, errs
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

func parseServers(source string, data []byte, root string, getenv func(string) string) ([]ServerConfig, []error) {
	var file struct {
		MCPServers map[string]json.RawMessage `json:"mcpServers"`
	}
	if err := json.Unmarshal(data, &file); err != nil {
		return nil, []error{fmt.Errorf("%s: %w", source, err)}
	}
	names := make([]string, 0, len(file.MCPServers))
	for name := range file.MCPServers {
		names = append(names, name)
	}
	sort.Strings(names)
	var out []ServerConfig
	var errs []error
	for _, name := range names {
		cfg, err := parseServer(source, name, file.MCPServers[name], root, getenv)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, cfg)
	}
	return out, errs
}

func parseServer(source, name string, data json.RawMessage, root string, getenv func(string) string) (ServerConfig, error) {
	fail := func(field string, err error) (ServerConfig, error) {
		return ServerConfig{}, fmt.Errorf("%s: server %q: field %q: %w", source, name, field, err)
	}
	if strings.TrimSpace(name) == "" {
		return fail("name", errors.New("must not be empty"))
	}
	var raw rawServer
	if err := json.Unmarshal(data, &raw); err != nil {
		return ServerConfig{}, fmt.Errorf("%s: server %q: must be an object: %w", source, name, err)
	}
	cfg := ServerConfig{Name: name, Source: source}
	x := expander{getenv: getenv}
	str := func(r json.RawMessage, dst *string) error {
		if len(r) == 0 || string(r) == "null" {
			return nil
		}
		var s string
		if err := json.Unmarshal(r, &s); err != nil {
			return fmt.Errorf("must be a string")
		}
		v, err := x.expand(s)
		if err != nil {
			return err
		}
		*dst = v
		return nil
	}
	strMap := func(r json.RawMessage) (map[string]string, error) {
		if len(r) == 0 || string(r) == "null" {
			return nil, nil
		}
		var m map[string]string
		if err := json.Unmarshal(r, &m); err != nil {
			return nil, fmt.Errorf("must be an object of strings")
		}
		for k, v := range m {
			ev, err := x.expand(v)
			if err != nil {
				return nil, fmt.Errorf("%q: %w", k, err)
			}
			m[k] = ev
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
		for i, a := range cfg.Args {
			if cfg.Args[i], err = x.expand(a); err != nil {
				return fail("args", err)
			}
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

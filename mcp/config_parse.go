package mcp

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/agent-lsp/agent-lsp/tools/editorjson"
)

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
	Eager   json.RawMessage `json:"eager"`   // true: every tool in every request (no tool search)
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
	if len(raw.Eager) > 0 && string(raw.Eager) != "null" {
		if err := json.Unmarshal(raw.Eager, &cfg.Eager); err != nil {
			return fail("eager", errors.New("must be true or false"))
		}
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

package mcp

import (
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/agent-lsp/agent-lsp/tools"
)

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

package mcp

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"mvdan.cc/sh/v3/shell"

	"github.com/agent-lsp/agent-lsp/tools"
)

// eagerFlagPrefix opens an --mcp value whose server's tools are always
// sent whole (`--mcp 'eager:github=npx -y @modelcontextprotocol/server-github'`).
const eagerFlagPrefix = "eager:"

// flagNamePattern is what may stand before '=' in `--mcp=name=command`.
var flagNamePattern = regexp.MustCompile(`^[A-Za-z0-9_.-]+$`)

// runners are launchers whose first non-option argument names the server.
var runners = map[string]bool{
	"npx": true, "node": true, "bunx": true, "bun": true, "deno": true, "uvx": true, "uv": true,
	"python": true, "python3": true, "pipx": true, "docker": true, "env": true,
}

// parseFlags turns --mcp values into configs. A value is `demo`, a command
// line (split like a shell would, $VAR expanded and then kept from every
// other child by tools.HideEnv), or `name=command line`; `eager:` before
// either pins the server's tools (ServerConfig.Eager).
func parseFlags(flags []string, root string, getenv func(string) string) ([]ServerConfig, []error) {
	var out []ServerConfig
	var errs []error
	used := map[string]bool{}
	for i, v := range flags {
		v = strings.TrimSpace(v)
		if v == "" {
			errs = append(errs, fmt.Errorf("--mcp #%d: empty value", i+1))
			continue
		}
		if v == DemoServerName {
			cfg, err := DemoConfig()
			if err != nil {
				errs = append(errs, fmt.Errorf("--mcp=demo: %w", err))
				continue
			}
			out = append(out, cfg)
			used[cfg.Name] = true
			continue
		}
		rest, eager := strings.CutPrefix(v, eagerFlagPrefix)
		if eager {
			v = strings.TrimSpace(rest)
		}
		name := ""
		if n, rest, ok := strings.Cut(v, "="); ok && flagNamePattern.MatchString(n) {
			name, v = n, rest
		}
		var referenced []string
		words, err := shell.Fields(v, func(name string) string {
			if strings.Contains(v, "$"+name) || strings.Contains(v, "${"+name) {
				referenced = append(referenced, name)
			}
			return getenv(name)
		})
		// The user handed these variables to this server: from now on no
		// other child inherits them (getenv still reads them).
		tools.HideEnv(referenced...)
		if err != nil || len(words) == 0 {
			errs = append(errs, fmt.Errorf("--mcp=%q: cannot split the command line: %v", v, err))
			continue
		}
		if name == "" {
			name = uniqueName(nameFromCommand(words), used)
		}
		used[name] = true
		cfg := ServerConfig{Name: name, Type: TypeStdio, Command: words[0], Args: words[1:], Source: "--mcp", Eager: eager}
		if field, err := cfg.validate(root); err != nil {
			errs = append(errs, fmt.Errorf("--mcp=%q: field %q: %w", v, field, err))
			continue
		}
		out = append(out, cfg)
	}
	return out, errs
}

// DemoConfig is the built-in demo server: this very binary run as
// `agent-lsp mcp-demo`.
func DemoConfig() (ServerConfig, error) {
	exe, err := os.Executable()
	if err != nil {
		return ServerConfig{}, fmt.Errorf("locating the running binary: %w", err)
	}
	return ServerConfig{Name: DemoServerName, Type: TypeStdio, Command: exe, Args: []string{"mcp-demo"}, Source: "--mcp"}, nil
}

// nameFromCommand derives a server name from a command line: the package or
// script a runner starts (`npx -y @scope/server-x /tmp` → server-x), else
// the program itself.
func nameFromCommand(words []string) string {
	pick := words[0]
	if runners[filepath.Base(words[0])] {
		for _, w := range words[1:] {
			if strings.HasPrefix(w, "-") || strings.Contains(w, "=") {
				continue
			}
			pick = w
			break
		}
	}
	pick = filepath.Base(pick)
	if at := strings.LastIndex(pick, "@"); at > 0 { // pkg@version
		pick = pick[:at]
	}
	pick = strings.TrimSuffix(pick, filepath.Ext(pick))
	pick = sanitize(pick)
	if pick == "" {
		pick = "server"
	}
	return pick
}

func uniqueName(base string, used map[string]bool) string {
	name := base
	for n := 2; used[name]; n++ {
		name = fmt.Sprintf("%s_%d", base, n)
	}
	return name
}

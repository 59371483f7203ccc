package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"time"

	"github.com/agent-lsp/agent-lsp/tools"
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
	// Eager pins the server's tools: every request carries them whole,
	// however many tools are mounted (no tool search for them).
	Eager bool
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
// server name: <workspaceRoot>/.mcp.json, then editorServers (the LSP
// initialize request's `initializationOptions.mcpServers`, which the
// daemon decodes with the rest of its options: the .mcp.json
// `mcpServers` shape), then the chat's --mcp flag
// values (each a command line, `name=command line`, or `demo` for the
// built-in demo server).
//
// The user's entries have ${VAR} and ${VAR:-default} expanded from getenv
// (nil: tools.Getenv), after the variables they name were moved into the
// vault (tools.HideEnv): other children never see them. The workspace's
// entries are parsed and checked for shape only; nothing in them is
// expanded until WorkspaceEntry.Config, which the caller runs once the user
// trusted the entry.
func LoadConfig(workspaceRoot string, editorServers json.RawMessage, flags []string, getenv func(string) string) LoadedConfig {
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
	if s := bytes.TrimSpace(editorServers); len(s) > 0 && string(s) != "null" {
		wrapped := append(append([]byte(`{"mcpServers":`), s...), '}')
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

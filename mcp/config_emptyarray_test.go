package mcp

import (
	"encoding/json"
	"testing"
)

// Lua writes an empty table as []: mcpServers [] and an entry's env or
// headers [] are the empty objects they stand for (initializationOptions
// [] itself is the daemon's to read: lsp's decodeParams).
func TestLoadConfigEmptyArraysAreEmptyObjects(t *testing.T) {
	for _, servers := range []string{``, `[]`, `null`, `{}`, ` [ ] `} {
		loaded := LoadConfig("", json.RawMessage(servers), nil, env(nil))
		if len(loaded.Errors) != 0 || len(loaded.Servers) != 0 {
			t.Errorf("mcpServers %s: servers %v, errors %v", servers, loaded.Servers, loaded.Errors)
		}
	}
	loaded := LoadConfig("", json.RawMessage(`{
		"s": {"command":"srv","args":[],"env":[]},
		"h": {"type":"http","url":"https://example.com/mcp","headers":[ ]}}`), nil, env(nil))
	if len(loaded.Errors) != 0 || len(loaded.Servers) != 2 {
		t.Fatalf("servers %+v, errors %v", loaded.Servers, loaded.Errors)
	}
	for _, c := range loaded.Servers {
		if len(c.Env) != 0 || len(c.Headers) != 0 || len(c.Args) != 0 {
			t.Errorf("%s = %+v", c.Name, c)
		}
	}
	// Only empty arrays: a list of servers is still not the object of them.
	if loaded := LoadConfig("", json.RawMessage(`[{"command":"srv"}]`), nil, env(nil)); len(loaded.Errors) != 1 {
		t.Errorf("mcpServers as a list: errors %v", loaded.Errors)
	}
}

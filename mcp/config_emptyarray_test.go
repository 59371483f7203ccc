package mcp

import (
	"encoding/json"
	"testing"
)

// Lua writes an empty table as []: initializationOptions [], mcpServers []
// and an entry's env or headers [] are the empty objects they stand for.
func TestLoadConfigEmptyArraysAreEmptyObjects(t *testing.T) {
	for _, init := range []string{`[]`, `null`, `{}`, `{"mcpServers":[]}`, `{"mcpServers":{}}`, `{"mcpServers":null}`} {
		loaded := LoadConfig("", json.RawMessage(init), nil, env(nil))
		if len(loaded.Errors) != 0 || len(loaded.Servers) != 0 {
			t.Errorf("initializationOptions %s: servers %v, errors %v", init, loaded.Servers, loaded.Errors)
		}
	}
	loaded := LoadConfig("", json.RawMessage(`{"mcpServers":{
		"s": {"command":"srv","args":[],"env":[]},
		"h": {"type":"http","url":"https://example.com/mcp","headers":[ ]}}}`), nil, env(nil))
	if len(loaded.Errors) != 0 || len(loaded.Servers) != 2 {
		t.Fatalf("servers %+v, errors %v", loaded.Servers, loaded.Errors)
	}
	for _, c := range loaded.Servers {
		if len(c.Env) != 0 || len(c.Headers) != 0 || len(c.Args) != 0 {
			t.Errorf("%s = %+v", c.Name, c)
		}
	}
	// Only empty arrays: a list of servers is still not the object of them.
	if loaded := LoadConfig("", json.RawMessage(`{"mcpServers":[{"command":"srv"}]}`), nil, env(nil)); len(loaded.Errors) != 1 {
		t.Errorf("mcpServers as a list: errors %v", loaded.Errors)
	}
}

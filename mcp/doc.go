// Package mcp mounts the tools of MCP servers into a tools.Registry, on the
// official Go SDK (github.com/modelcontextprotocol/go-sdk).
//
// Each configured server (LoadConfig: .mcp.json, then the LSP
// initializationOptions.mcpServers, then --mcp flags) gets one client. The
// workspace's .mcp.json entries are untrusted (trust.go): LoadConfig keeps
// them unexpanded as WorkspaceEntry values, and only the front end, once
// the user trusted one (TrustStore remembers "always"), expands it into a
// ServerConfig to start. The
// SDK probes with server/discover for the stateless 2026-07-28 revision and
// falls back to the initialize handshake; a server that lets the probe go
// unanswered is retried once, on a fresh process, at 2025-11-25.
//
// Every MCP tool becomes an ordinary tools.Tool named mcp__<server>__<tool>,
// so the agent loop, the permission policy and the compactor do not change:
// approval is asked per exposed tool, destructiveHint makes it HIGH risk,
// readOnlyHint never skips the question (the hints come from an untrusted
// server). Servers with resources get list_resources and read_resource
// tools; prompts are listed by Manager.Prompts.
//
// Lifecycle (Manager): servers start concurrently in the background; one
// that fails, dies or stops answering is marked down, its calls fail with
// the reason (exit status, last stderr lines) at once, and a background job
// restarts it after a backoff (1 s, 2 s, 4 s … 1 min, back to 1 s after a
// successful start), mounting its tools when it comes up; configuration
// errors (a missing command) are not retried. tools/list_changed refreshes the
// registry. Each stdio server runs in its own process group, which Close
// kills, and dies with the daemon (Pdeathsig, forked from a thread that
// outlives it: procgroup_spawner.go); where the machine allows it, under
// an init in a PID namespace of its own, so that everything it started,
// setsid daemons included, dies with it and with the daemon, kill -9
// included (procgroup_tree.go). An HTTP entry's headers go only to its
// URL's origin: a redirect elsewhere carries no credential (httpclient.go).
package mcp

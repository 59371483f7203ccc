// Package world builds what a session's world is made of, once, for every
// front end (the LSP daemon, the ACP server, the terminal chat): the model
// connections and the one recorder or replay behind them (Models), the
// session store (OpenStore), the OS sandbox of commands with the store
// hidden from them (OpenSandbox), the tool registry (NewRegistry), the bounded
// wait for MCP servers (StartMCP) and the system prompt (SystemPrompt).
//
// Its one rule for a model switch: a switched model's connection is built
// over the same recorder, or answers from the same replay, as the first
// one, so a recording keeps every exchange of the session and a replay
// plays the whole of it, whichever front end switched.
package world

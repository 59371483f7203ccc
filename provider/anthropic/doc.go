// Package anthropic is the Anthropic Messages dialect: it encodes a neutral
// provider.Request into a POST /v1/messages body and decodes the Messages SSE
// stream into provider Events. By default it talks to DeepSeek's
// Anthropic-compatible endpoint (same account, same model as the Chat
// Completions dialect), so any difference in behaviour comes from the wire
// format alone.
//
// # Three differences it smooths over
//
//  1. Tool results. Chat Completions wants one role:"tool" message per result;
//     Messages wants every consecutive result as a tool_result block in ONE
//     user message. The agent only records "these tools answered"; the
//     grouping happens here.
//  2. Tool arguments. provider.ToolCall keeps the argument JSON as the text
//     the model produced (Chat Completions sends it back byte for byte);
//     Messages wants tool_use.input as a JSON object, so the text is parsed
//     here (text that is not a JSON object is sent as {}).
//  3. The SSE stream. Messages frames carry "event:" lines, a "ping"
//     heartbeat, no [DONE] sentinel (the connection just closes after
//     message_stop), tool-argument fragments as input_json_delta keyed by
//     content-block index (mapped here to the tool_use id), and usage split
//     between message_start and message_delta. Its input_tokens counts only
//     the uncached input: the total prompt is input_tokens +
//     cache_read_input_tokens + cache_creation_input_tokens, and that total is
//     what provider.Usage.PromptTokens means in every dialect.
//
// # The one it cannot smooth over
//
// Messages has no system message in mid-conversation: "system" is a top-level
// field and the message roles are only user and assistant. The leading run of
// system messages (the system prompt) goes to the top-level field; a system
// message anywhere later, and a summary (provider.Message.Summary, which the
// compactor places right after the system prompt), is sent as user text, so the
// model may read the summary as something the user said rather than as
// background. This is the crack in the abstraction; it lives here and nowhere
// else. Only the leading run may go to the top level: collecting every system
// message would send the summary twice and, worse, change the top-level system
// text after each compaction, which invalidates the whole cached prefix.
//
// # Other rules of the wire this package keeps
//
//   - max_tokens is required: 8192 when the request leaves it at 0.
//   - Auth is x-api-key plus anthropic-version: 2023-06-01, not a Bearer token.
//   - The API requires user and assistant turns to alternate, so consecutive
//     user-role output (tool results, a mid-conversation summary, the next
//     prompt) is merged into one user message; tool_result blocks are kept
//     ahead of text blocks in it, as the API requires.
//   - Content arrays and text blocks are never empty: empty texts are left
//     out, and an assistant turn with nothing to send (no text, no tool call,
//     no signed thinking) is dropped; the user turns around it then merge.
//   - Thinking is sent back as a thinking block with its signature, first in
//     its assistant turn. Reasoning without a signature (for instance from a
//     conversation begun in the Chat Completions dialect) is dropped: the API
//     rejects an unsigned thinking block. Redacted thinking is not kept.
//     A server that signs nothing (provider.Flavour.UnsignedThinking:
//     llama.cpp, named by the configuration, its default port or its
//     "Server: llama.cpp" answer) gets its unsigned reasoning back, and its
//     tool loop keeps thinking on.
//   - Prompt-cache breakpoints (cache_control: ephemeral) go on the last tool,
//     on the system prompt and on the last content block of the newest
//     message. Anthropic caches nothing without them; endpoints that cache on
//     their own ignore them.
package anthropic

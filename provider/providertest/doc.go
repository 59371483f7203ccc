// Package providertest is a scripted fake model server for tests. One Server
// speaks both wire dialects from one Script: Chat Completions (DeepSeek's
// flavour by default) under OpenAIBaseURL and Anthropic Messages under
// AnthropicBaseURL. Request i that the server accepts is answered by Turn i.
//
// The fake is deliberately strict and deliberately independent of our own
// encoders: it decodes what a client sends with its own JSON handling and
// answers 400 (401 for credentials) with a body shaped like the real service's
// error whenever the real API would refuse the request: a tool message that
// answers no call, a missing reasoning round-trip, a flat tool schema, a
// missing max_tokens, a "system" role inside messages, an empty content
// array, and so on (see validate_*.go). A refused request is recorded with its
// reason and does not consume a turn.
//
// The answers are streamed the way the real services stream them: Chat
// Completions chunks with reasoning_content and content mutually exclusive,
// tool-call arguments fragmented at pseudo-random rune boundaries with id and
// name only on the first fragment, usage on the finish chunk and a [DONE]
// sentinel; Messages events with ping frames, thinking blocks closed by a
// signature_delta, input_json_delta fragments, and no sentinel at all. Every
// frame is flushed on its own, so a client sees the same chunking it would see
// from the wire.
//
// Faults (an HTTP status with Retry-After, a connection dropped after N
// frames, a garbage frame, a stall, an in-stream error, a stream without a
// finish) are part of the script, so retry and failure paths are tested with
// the same machinery as the happy path. WithContextLimit gives the server a
// context window: an overlong request is refused with the 400 body of
// llama.cpp, OpenAI, vLLM or Anthropic, by the fake's own deterministic
// token count (PromptTokens), without consuming a turn.
//
// The same Server speaks the fill-in-the-middle endpoints under FIMBaseURL
// (fim_*.go): DeepSeek's /beta/completions, llama.cpp's /infill, Ollama's
// /api/generate (NDJSON), Mistral's /v1/fim/completions and OpenAI's
// /v1/completions, each request validated as strictly as the chat ones and
// answered by a Turn whose FIM field scripts the text, its chunking, its
// stop, delays and stalls. Each accepted FIM request is recorded as a
// FIMRequest, which also tells when the client closed the stream.
//
// Fragment boundaries and generated ids come from a pseudo-random source
// seeded per turn: WithSeed makes a run reproducible; without it the seed is
// chosen at random and logged with t.Logf so a failing run can be replayed.
//
// The package is for tests only: it records request headers as they arrived,
// credentials included, which is acceptable for the fake keys tests use.
package providertest

// Package agent is the agent core: a Session holds one conversation and runs
// the tool loop for each user prompt. A round sends the history and the tool
// specs to the model, accumulates the streamed assistant turn, appends it,
// and, only when the model stopped to use tools, runs that turn's calls in
// parallel and appends one result per call in the order the model asked.
//
// The history is always a valid conversation: a round whose model call
// failed or was cancelled adds nothing, tool calls cut short by the token
// limit are dropped, and cancelled tool calls still get a result.
//
// Context management: before each request the session estimates its size
// (the provider's count for the last request plus an estimate of what was
// added since) and, past Config.Budget, compacts the history: old tool
// outputs are elided first, and only if that is not enough the older
// history is summarised by a model call into one system message marked
// Summary, right after the system prompt. Between compactions the history
// is append-only and the tools and system prompt never change, so each
// request is a byte prefix of the next (the provider's prompt cache).
//
// With a Store, each complete round is appended to the session's JSONL
// file and fsync'd; ResumeSession reads back the committed rounds.
//
// The package knows neither the model's wire dialect (provider) nor the
// front end (Listener) nor where file text lives (tools.Documents).
package agent

// Package lsptest is an in-process LSP client for tests, after gopls's
// fake editor: it speaks to a server over any byte stream, keeps its own
// in-memory buffers, applies the server's workspace/applyEdit to them (and
// reports the change back with didChange, like a real editor), answers
// window/showMessageRequest through a test's handler, and records every
// notification it receives.
package lsptest

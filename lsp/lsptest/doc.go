// Package lsptest is an in-process LSP client for tests, after gopls's
// fake editor: it speaks to a server over any byte stream, keeps its own
// in-memory buffers, applies the server's workspace/applyEdit to them
// (text edits of several documents, CreateFile, DeleteFile; all or
// nothing) and reports the change back with didChange (didClose for a
// deleted open document), like a real editor, keeps each edit's inverse
// so that Undo can take it back as an editor's undo would, answers
// window/showMessageRequest through a test's handler, and records every
// notification it receives.
package lsptest

// Package modulezip holds the module to what the Go module proxy takes:
// `go install github.com/agent-lsp/agent-lsp/cmd/agent-lsp@<version>`
// downloads the module as a zip, and one file name the zip rules refuse
// (a Windows reserved name such as "nul", a path too long, a case clash)
// makes that command fail for every user. The check is its test.
package modulezip

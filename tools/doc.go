// Package tools owns what the model can do: the Tool interface, the registry
// that checks permission and runs calls concurrently with output truncation,
// the workspace sandbox that every path goes through, the Documents seam
// (where file text lives and how edits land), and the built-in tools.
package tools

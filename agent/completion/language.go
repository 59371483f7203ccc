package completion

import "github.com/agent-lsp/agent-lsp/provider/fim"

// Language is the editor's language id, or when that says nothing
// ("" or "plaintext") the one the file's extension suggests (provider/fim's
// table, which also picks the comment of a path header).
func Language(languageID, path string) string {
	if languageID != "" && languageID != "plaintext" {
		return languageID
	}
	if l, ok := fim.LanguageOf(path); ok {
		return l
	}
	if languageID == "" {
		return "plaintext"
	}
	return languageID
}

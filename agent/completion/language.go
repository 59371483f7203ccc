package completion

import (
	"path/filepath"
	"strings"
)

// byExtension names the language of a file the editor called plaintext
// (or did not name), with the names editors use as language ids.
var byExtension = map[string]string{
	".go": "go", ".py": "python", ".js": "javascript", ".jsx": "javascriptreact",
	".ts": "typescript", ".tsx": "typescriptreact", ".rs": "rust", ".c": "c", ".h": "c",
	".cc": "cpp", ".cpp": "cpp", ".hpp": "cpp", ".java": "java", ".kt": "kotlin",
	".cs": "csharp", ".rb": "ruby", ".php": "php", ".lua": "lua", ".sh": "shellscript",
	".bash": "shellscript", ".swift": "swift", ".scala": "scala", ".sql": "sql", ".zig": "zig",
	".md": "markdown", ".json": "json", ".yaml": "yaml", ".yml": "yaml", ".toml": "toml",
	".html": "html", ".css": "css", ".ex": "elixir", ".exs": "elixir", ".hs": "haskell",
}

// Language is the editor's language id, or when that says nothing
// ("" or "plaintext") the one the file's extension suggests.
func Language(languageID, path string) string {
	if languageID != "" && languageID != "plaintext" {
		return languageID
	}
	if l, ok := byExtension[strings.ToLower(filepath.Ext(path))]; ok {
		return l
	}
	if languageID == "" {
		return "plaintext"
	}
	return languageID
}

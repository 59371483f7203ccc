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
	".cs": "csharp", ".rb": "ruby", ".php": "php", ".lua": "lua", ".sh": "sh",
	".bash": "sh", ".swift": "swift", ".scala": "scala", ".sql": "sql", ".zig": "zig",
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

// lineComment is how a language starts a line comment; "" for languages
// without one (or unknown), which then get no context header: a header
// the language cannot hold would teach the model to write garbage.
func lineComment(language string) string {
	switch language {
	case "go", "javascript", "javascriptreact", "typescript", "typescriptreact", "rust", "c",
		"cpp", "java", "kotlin", "csharp", "php", "swift", "scala", "zig":
		return "//"
	case "python", "ruby", "sh", "yaml", "toml", "elixir":
		return "#"
	case "lua", "sql", "haskell":
		return "--"
	}
	return ""
}

package fim

import (
	"path/filepath"
	"strings"
)

// extLanguages is the LSP languageId of common file extensions, for a file
// whose language nobody named: the one table of it (agent/completion names
// a buffer's language with it too).
var extLanguages = map[string]string{
	".go": "go", ".c": "c", ".h": "c", ".cc": "cpp", ".cpp": "cpp", ".hpp": "cpp",
	".cs": "csharp", ".java": "java", ".js": "javascript", ".mjs": "javascript",
	".jsx": "javascriptreact", ".ts": "typescript", ".tsx": "typescriptreact",
	".rs": "rust", ".swift": "swift", ".kt": "kotlin", ".scala": "scala", ".dart": "dart",
	".php": "php", ".zig": "zig", ".py": "python", ".rb": "ruby", ".sh": "shellscript",
	".bash": "shellscript", ".pl": "perl", ".r": "r", ".yaml": "yaml", ".yml": "yaml",
	".toml": "toml", ".ex": "elixir", ".exs": "elixir", ".jl": "julia", ".lua": "lua",
	".sql": "sql", ".hs": "haskell", ".clj": "clojure", ".erl": "erlang", ".tex": "latex",
	".vim": "vim", ".md": "markdown", ".json": "json", ".html": "html", ".css": "css",
}

// LanguageOf is the languageId path's extension suggests (case-insensitive),
// if the table knows it.
func LanguageOf(path string) (string, bool) {
	l, ok := extLanguages[strings.ToLower(filepath.Ext(path))]
	return l, ok
}

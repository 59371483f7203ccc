package fim

import (
	"path/filepath"
	"strings"
)

// lineComments maps LSP languageIds to their line-comment token: the path
// header of dialects without a path field is written as such a comment.
var lineComments = map[string]string{
	"go": "//", "c": "//", "cpp": "//", "objective-c": "//", "csharp": "//", "java": "//",
	"javascript": "//", "javascriptreact": "//", "typescript": "//", "typescriptreact": "//",
	"rust": "//", "swift": "//", "kotlin": "//", "scala": "//", "dart": "//", "php": "//",
	"zig": "//", "groovy": "//", "proto": "//", "jsonc": "//",
	"python": "#", "ruby": "#", "shellscript": "#", "perl": "#", "r": "#", "yaml": "#",
	"toml": "#", "dockerfile": "#", "makefile": "#", "elixir": "#", "julia": "#",
	"nim": "#", "powershell": "#", "cmake": "#", "coffeescript": "#",
	"lua": "--", "sql": "--", "haskell": "--", "elm": "--",
	"clojure": ";;", "lisp": ";;", "scheme": ";;",
	"erlang": "%", "latex": "%", "tex": "%",
	"vim": `"`,
}

// extLanguages is the languageId of common file extensions, for a request
// that names its path but not its language.
var extLanguages = map[string]string{
	".go": "go", ".c": "c", ".h": "c", ".cc": "cpp", ".cpp": "cpp", ".hpp": "cpp",
	".cs": "csharp", ".java": "java", ".js": "javascript", ".mjs": "javascript",
	".jsx": "javascriptreact", ".ts": "typescript", ".tsx": "typescriptreact",
	".rs": "rust", ".swift": "swift", ".kt": "kotlin", ".scala": "scala", ".dart": "dart",
	".php": "php", ".zig": "zig", ".py": "python", ".rb": "ruby", ".sh": "shellscript",
	".bash": "shellscript", ".pl": "perl", ".r": "r", ".yaml": "yaml", ".yml": "yaml",
	".toml": "toml", ".ex": "elixir", ".exs": "elixir", ".jl": "julia", ".lua": "lua",
	".sql": "sql", ".hs": "haskell", ".clj": "clojure", ".erl": "erlang", ".tex": "latex",
	".vim": "vim",
}

// lineComment is the line-comment token of language (or, when it is empty,
// of path's extension); "" when unknown.
func lineComment(language, path string) string {
	language = strings.ToLower(strings.TrimSpace(language))
	if language == "" {
		language = extLanguages[strings.ToLower(filepath.Ext(path))]
	}
	return lineComments[language]
}

package fim

import "strings"

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

// lineComment is the line-comment token of language (or, when it is empty,
// of path's extension); "" when unknown.
func lineComment(language, path string) string {
	language = strings.ToLower(strings.TrimSpace(language))
	if language == "" {
		language, _ = LanguageOf(path)
	}
	return lineComments[language]
}

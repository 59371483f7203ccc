package fim

import "testing"

// One table names a file's language for both the path header's comment
// and inline completion: a language with a comment token has it whatever
// the case of the extension, and a language without one (markdown) names
// no comment.
func TestLanguageOfAndLineComment(t *testing.T) {
	for _, tt := range []struct{ path, lang, comment string }{
		{"a/main.GO", "go", "//"},
		{"tool.py", "python", "#"},
		{"q.sql", "sql", "--"},
		{"core.clj", "clojure", ";;"},
		{"README.md", "markdown", ""},
		{"Makefile", "", ""},
	} {
		lang, ok := LanguageOf(tt.path)
		if lang != tt.lang || ok != (tt.lang != "") {
			t.Errorf("LanguageOf(%q) = %q, %v; want %q", tt.path, lang, ok, tt.lang)
		}
		if got := lineComment("", tt.path); got != tt.comment {
			t.Errorf("lineComment(%q) = %q, want %q", tt.path, got, tt.comment)
		}
	}
}

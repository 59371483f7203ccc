package completion

import "testing"

// The editor's language id wins; an editor that said nothing (or
// plaintext) gets the extension's, from provider/fim's table, both the
// extensions inline completion named first and those the path header did.
func TestLanguage(t *testing.T) {
	for _, tt := range []struct{ id, path, want string }{
		{"go", "x.py", "go"},
		{"", "main.go", "go"},
		{"plaintext", "notes.md", "markdown"},
		{"", "App.TSX", "typescriptreact"},
		{"", "index.mjs", "javascript"},
		{"", "init.vim", "vim"},
		{"", "README", "plaintext"},
		{"plaintext", "data.unknownext", "plaintext"},
	} {
		if got := Language(tt.id, tt.path); got != tt.want {
			t.Errorf("Language(%q, %q) = %q, want %q", tt.id, tt.path, got, tt.want)
		}
	}
}

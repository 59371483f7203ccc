package control

import "testing"

func TestWithoutModeNote(t *testing.T) {
	note := "\n\n(Mode: plan. Investigate with the read-only tools. Do not change files or run commands yet.)"
	for _, tc := range []struct{ name, text, typed, want string }{
		{"plan note cut", "Anything left?" + note, "Anything left?", "Anything left?"},
		{"no note", "Anything left?", "Anything left?", "Anything left?"},
		{"no checkpoint known", "Fix it" + note, "", "Fix it"},
		{"typed by the user", "Say (Mode: x)" + "\n\n(Mode: mine)", "Say (Mode: x)\n\n(Mode: mine)", "Say (Mode: x)\n\n(Mode: mine)"},
		{"not the last paragraph", "a\n\n(Mode: x) and more", "", "a\n\n(Mode: x) and more"},
	} {
		if got := withoutModeNote(tc.text, tc.typed); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}

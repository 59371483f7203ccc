package control

import "testing"

func TestExpandCommand(t *testing.T) {
	for _, c := range []struct{ body, args, want string }{
		{"Fix #$ARGUMENTS.", "12 quickly", "Fix #12 quickly."},
		{"Compare $1 with $2; $3 is empty.", `a "b c"`, "Compare a with b c;  is empty."},
		{"Review the diff.", "focus on errors", "Review the diff.\n\nfocus on errors"},
		{"Review the diff.\n", "", "Review the diff."},
		{"Cost: $5 and $ARGUMENTS", "x", "Cost:  and x"}, // $5 is an argument here, as in the peers'
	} {
		if got := expandCommand(c.body, c.args); got != c.want {
			t.Errorf("%q with %q: %q, want %q", c.body, c.args, got, c.want)
		}
	}
}

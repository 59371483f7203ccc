package permission

import "testing"

// FuzzAssessShell checks that the detector never panics and always
// returns a valid level, whatever the input.
func FuzzAssessShell(f *testing.F) {
	for _, tc := range dangerous {
		f.Add(tc.cmd)
	}
	for _, tc := range everyday {
		f.Add(tc.cmd)
	}
	for _, tables := range [][]riskTable{dangerousByCategory, everydayByCategory} {
		for _, tb := range tables {
			for _, c := range tb.cmds {
				f.Add(c)
			}
		}
	}
	f.Fuzz(func(t *testing.T, cmd string) {
		a := AssessShell(cmd, testRoots, testHome)
		if a.Risk < Low || a.Risk > Critical {
			t.Fatalf("%q: risk %d out of range", cmd, a.Risk)
		}
		if a.Risk >= High && len(a.Reasons) == 0 {
			t.Fatalf("%q: %v without a reason", cmd, a.Risk)
		}
		_ = AssessShell(cmd, nil, "")
		if b := AssessShellIn(cmd, sandboxCtx); b.Risk >= High && len(b.Reasons) == 0 {
			t.Fatalf("%q sandboxed: %v without a reason", cmd, b.Risk)
		}
	})
}

package permission

import (
	"context"
	"strings"
	"testing"
)

// With sandboxed commands auto-allowed, a sandboxed command below HIGH
// runs without a question; unsandboxed commands, HIGH and CRITICAL keep
// their rules; the option off asks again.
func TestAutoAllowSandboxedCommands(t *testing.T) {
	sandboxed := func(r Risk) Action {
		a := bash("go test ./...", r)
		a.Sandboxed = true
		return a
	}
	cases := []struct {
		name    string
		on      bool
		action  Action
		allowed bool
		asked   bool
		reason  string
	}{
		{"medium sandboxed, option on: no question", true, sandboxed(Medium), true, false, ""},
		{"low sandboxed, option on: no question", true, sandboxed(Low), true, false, ""},
		{"high sandboxed, option on: still asked", true, sandboxed(High), false, true, ReasonDenied},
		{"critical sandboxed, option on: refused", true, sandboxed(Critical), false, false, "refused: CRITICAL"},
		{"unsandboxed command, option on: asked", true, bash("go test ./...", Medium), false, true, ReasonDenied},
		{"medium sandboxed, option off: asked", false, sandboxed(Medium), false, true, ReasonDenied},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ap := &scriptedApprover{decision: Deny}
			p := NewPolicy(ap)
			p.SetAutoAllowSandboxedCommands(true)
			if !c.on {
				p.SetAutoAllowSandboxedCommands(false)
			}
			v, err := p.Check(context.Background(), c.action)
			if err != nil {
				t.Fatal(err)
			}
			if v.Allowed != c.allowed || !strings.HasPrefix(v.Reason, c.reason) {
				t.Errorf("verdict = %+v, want allowed %v reason %q", v, c.allowed, c.reason)
			}
			if asked := ap.callCount() > 0; asked != c.asked {
				t.Errorf("asked = %v, want %v", asked, c.asked)
			}
		})
	}
}

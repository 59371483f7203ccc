package permission

import (
	"context"
	"strings"
	"testing"
)

// autoAllowCase is one action checked with an auto-allow switch on or off.
type autoAllowCase struct {
	name    string
	on      bool
	action  Action
	allowed bool
	asked   bool
	reason  string
}

// checkAutoAllow runs each case against a policy whose approver denies,
// with the switch (set) turned on and then, for cases that want it off,
// off again.
func checkAutoAllow(t *testing.T, set func(*Policy, bool), cases []autoAllowCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ap := &scriptedApprover{decision: Deny}
			p := NewPolicy(ap)
			set(p, true)
			if !c.on {
				set(p, false)
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

// With workspace edits auto-allowed, an edit below HIGH runs without a
// question; commands, HIGH edits and CRITICAL keep their rules; turning the
// option off asks again.
func TestAutoAllowWorkspaceEdits(t *testing.T) {
	edit := func(r Risk) Action {
		return Action{Tool: "edit_file", Summary: "edit a.go", Scope: "edit_file", Risk: r, Path: "a.go", WorkspaceEdit: true}
	}
	checkAutoAllow(t, (*Policy).SetAutoAllowWorkspaceEdits, []autoAllowCase{
		{"medium edit, option on: no question", true, edit(Medium), true, false, ""},
		{"low edit, option on: no question", true, edit(Low), true, false, ""},
		{"high edit, option on: still asked", true, edit(High), false, true, ReasonDenied},
		{"critical edit, option on: refused", true, edit(Critical), false, false, "refused: CRITICAL"},
		{"command, option on: still asked", true, bash("go test", Medium), false, true, ReasonDenied},
		{"medium edit, option off: asked", false, edit(Medium), false, true, ReasonDenied},
	})
}

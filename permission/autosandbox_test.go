package permission

import "testing"

// With sandboxed commands auto-allowed, a sandboxed command below HIGH
// runs without a question; unsandboxed commands, HIGH and CRITICAL keep
// their rules; the option off asks again.
func TestAutoAllowSandboxedCommands(t *testing.T) {
	sandboxed := func(r Risk) Action {
		a := bash("go test ./...", r)
		a.Sandboxed = true
		return a
	}
	checkAutoAllow(t, (*Policy).SetAutoAllowSandboxedCommands, []autoAllowCase{
		{"medium sandboxed, option on: no question", true, sandboxed(Medium), true, false, ""},
		{"low sandboxed, option on: no question", true, sandboxed(Low), true, false, ""},
		{"high sandboxed, option on: still asked", true, sandboxed(High), false, true, ReasonDenied},
		{"critical sandboxed, option on: refused", true, sandboxed(Critical), false, false, "refused: CRITICAL"},
		{"unsandboxed command, option on: asked", true, bash("go test ./...", Medium), false, true, ReasonDenied},
		{"medium sandboxed, option off: asked", false, sandboxed(Medium), false, true, ReasonDenied},
	})
}

package permission

import (
	"fmt"
	"strings"
	"testing"
)

// The cost of consulting the rules files before a decision (two stats,
// the trust store read, matching) against the risk engine's own parse of
// the same command, the work every run_bash call already does.
func BenchmarkRulesDecide(b *testing.B) {
	s := newRulesSetup(b)
	var allow []string
	for i := range 20 {
		allow = append(allow, fmt.Sprintf("%q", fmt.Sprintf("run_bash: make target%d", i)))
	}
	s.writeUser(b, `{"allow": [`+strings.Join(allow, ",")+`, "run_bash: go test ./..."], "deny": ["run_bash: git push *"]}`)
	s.writeWorkspace(b, `{"allow": ["run_bash: npm test", "edit_file: src/**"], "deny": ["mcp__*"]}`)
	r := s.rules()
	if err := r.Trust(""); err != nil {
		b.Fatal(err)
	}
	a := bashCall("go test ./...", Medium)
	if got := decided(r, a); got != "allow" {
		b.Fatalf("decided %s", got)
	}
	b.ReportAllocs()
	for b.Loop() {
		r.Decide(a)
	}
}

func BenchmarkAssessShellReference(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		AssessShellIn("go test ./...", ShellContext{Roots: []string{"/w"}, Home: "/home/u"})
	}
}

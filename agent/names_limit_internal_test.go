package agent

import (
	"strings"
	"testing"
)

// The names' lengths are checked apart from their patterns (an unbounded
// class compiles cheaply; {0,127} does not): the limits still hold.
func TestNameLengthLimits(t *testing.T) {
	if !validID(strings.Repeat("a", 128)) || validID(strings.Repeat("a", 129)) {
		t.Error("a session id may be 128 bytes and no longer")
	}
	if validID("-a") || validID("a/b") || validID("") {
		t.Error("an id starts with a letter or digit and holds no slash")
	}
	if _, err := ParseSubagentFile([]byte("---\nname: "+strings.Repeat("a", 64)+"\ndescription: d\n---\nbody"), "x"); err != nil {
		t.Errorf("a 64-byte subagent name: %v", err)
	}
	if _, err := ParseSubagentFile([]byte("---\nname: "+strings.Repeat("a", 65)+"\ndescription: d\n---\nbody"), "x"); err == nil {
		t.Error("a 65-byte subagent name was taken")
	}
}

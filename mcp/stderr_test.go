package mcp

import (
	"strings"
	"testing"

	"go.uber.org/zap"
)

func TestStderrTailKeepsLastLinesBounded(t *testing.T) {
	tail := newStderrTail(zap.NewNop())
	for i := range 30 {
		_, _ = tail.Write([]byte(strings.Repeat("-", i%3) + "line " + string(rune('a'+i%26)) + "\n"))
	}
	_, _ = tail.Write([]byte("partial"))
	got := tail.Last(3)
	if got != "-line c | --line d | partial" {
		t.Errorf("Last(3) = %q", got)
	}
	_, _ = tail.Write([]byte(strings.Repeat("x", 10*stderrLineCap) + "\nnext\n"))
	last := tail.Last(2)
	if len(last) > stderrLineCap+20 || !strings.HasSuffix(last, " | next") {
		t.Errorf("after an overlong line: %d bytes, %.60q", len(last), last)
	}
}

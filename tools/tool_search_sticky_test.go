package tools

import (
	"slices"
	"strings"
	"testing"
)

// TestToolDeferralHysteresis: a session starts deferring past the
// threshold (count or size), keeps deferring until both are at 80% of it,
// and a session resumed with tools it found goes on deferring between the
// two lines.
func TestToolDeferralHysteresis(t *testing.T) {
	remote := func(n, descBytes int) []Tool {
		var ts []Tool
		for i := range n {
			ts = append(ts, remoteTool{name: "mcp__gen__tool_" + string(rune('a'+i)), desc: strings.Repeat("d", descBytes)})
		}
		return ts
	}
	var d ToolDeferral
	for _, step := range []struct {
		n, desc int
		want    bool
	}{
		{18, 10, false}, {21, 10, true}, {20, 10, true}, {17, 10, true}, {16, 10, false}, {20, 10, false},
		// By size: 10 tools of 1 KB is past 8 KiB, 7 of them (about 7.3 KB) between the lines, 6 (6.3 KB) below.
		{10, 1000, true}, {7, 1000, true}, {6, 1000, false}, {7, 1000, false}, {9, 1000, true},
	} {
		if got := d.decide(remote(step.n, step.desc), nil); got != step.want {
			t.Errorf("%d tools of %d bytes' description: deferring %v, want %v", step.n, step.desc, got, step.want)
		}
	}

	var resumed, fresh ToolDeferral
	if !resumed.decide(remote(18, 10), []string{"mcp__gen__tool_a"}) || fresh.decide(remote(18, 10), nil) {
		t.Error("between the lines, a session resumed with found tools defers and a new one does not")
	}
	r := registryWith(t, 0)
	if got := names(r.OfferIn(&resumed, remote(18, 10), []string{"mcp__gen__tool_a"})); !slices.Contains(got, ToolSearchName) || !slices.Contains(got, "mcp__gen__tool_a") {
		t.Errorf("offered %v", got)
	}
}

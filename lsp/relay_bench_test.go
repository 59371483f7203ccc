package lsp_test

import (
	"runtime"
	"testing"

	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// relayDeltas is how many text deltas one answer of BenchmarkDeltaRelay
// streams, each relayDeltaBytes long (a token or two, as models send them).
const (
	relayDeltas     = 2000
	relayDeltaBytes = 8
)

// BenchmarkDeltaRelay measures the delta path end to end in one process:
// the fake model's SSE frames, read over loopback HTTP and decoded by the
// provider, through the agent, to agent/update frames read by the editor.
// An op is one answer of relayDeltas deltas; ns/delta, allocs/delta and
// B/delta count the whole process (the fake model and the editor
// included), so they compare builds, not the daemon alone. Run with a
// fixed -benchtime (e.g. 10x): the session's history grows every op.
func BenchmarkDeltaRelay(b *testing.B) {
	s := start(b, providertest.Script{}, setupOptions{quiet: true})
	s.initialize(nil)
	turn := providertest.Turn{Text: "a", Generated: &providertest.GeneratedText{Bytes: (relayDeltas - 1) * relayDeltaBytes, Delta: relayDeltaBytes}}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	b.ResetTimer()
	for b.Loop() {
		s.model.Append(turn)
		if r := s.prompt(map[string]any{"prompt": "go"}); r.Error != "" {
			b.Fatalf("prompt: %s", r.Error)
		}
	}
	b.StopTimer()
	runtime.ReadMemStats(&after)
	deltas := float64(b.N * relayDeltas)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/deltas, "ns/delta")
	b.ReportMetric(float64(after.Mallocs-before.Mallocs)/deltas, "allocs/delta")
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/deltas, "B/delta")
}

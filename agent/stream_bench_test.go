package agent_test

import (
	"runtime"
	"testing"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// BenchmarkStreamedAnswer streams an answer just under the answer limit
// through the real HTTP provider, the dialect's decoder and the turn
// accumulator, and reports what it costs per byte of answer: bytes
// allocated (the fake server's share included), and the live heap the
// answer left behind once it is in the history.
func BenchmarkStreamedAnswer(b *testing.B) {
	const size = agent.DefaultMaxAnswerBytes - 64<<10
	for _, dialect := range bothDialects {
		b.Run(dialect, func(b *testing.B) {
			var allocated, retained float64
			for range b.N {
				srv := providertest.NewServer(b, providertest.Script{
					{Text: "Here: ", Generated: &providertest.GeneratedText{Bytes: size, Delta: 64}},
				}, providertest.WithSeed(1))
				s := limitedSession(b, dialect, srv, nil)
				var before, after runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&before)
				o := s.Prompt(b.Context(), "write", nil)
				runtime.GC()
				runtime.ReadMemStats(&after)
				if o.StopReason != agent.StopEndTurn {
					b.Fatalf("stop %q: %v", o.StopReason, o.Err)
				}
				allocated += float64(after.TotalAlloc - before.TotalAlloc)
				retained += float64(int64(after.HeapAlloc) - int64(before.HeapAlloc))
				runtime.KeepAlive(s)
			}
			b.ReportMetric(allocated/float64(b.N)/size, "alloc-bytes/answer-byte")
			b.ReportMetric(retained/float64(b.N)/size, "retained-bytes/answer-byte")
		})
	}
}

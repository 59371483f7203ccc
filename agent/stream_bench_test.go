package agent_test

import (
	"runtime"
	"testing"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// longAnswer is long enough that what it costs is what is paid per byte.
const longAnswer = 2 << 20

// answerCost streams longAnswer bytes through the real HTTP provider, the
// dialect's decoder and the turn accumulator into the history, and returns
// per byte of answer the bytes allocated (the fake server's share
// included) and the live heap the answer left behind.
func answerCost(tb testing.TB, dialect string) (allocated, retained float64) {
	srv := providertest.NewServer(tb, providertest.Script{
		{Text: "Here: ", Generated: &providertest.GeneratedText{Bytes: longAnswer, Delta: 256}},
	}, providertest.WithSeed(1))
	s := limitedSession(tb, dialect, srv, nil)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	o := s.Prompt(tb.Context(), "write", nil)
	runtime.GC()
	runtime.ReadMemStats(&after)
	if o.StopReason != agent.StopEndTurn {
		tb.Fatalf("stop %q: %v", o.StopReason, o.Err)
	}
	runtime.KeepAlive(s)
	return float64(after.TotalAlloc-before.TotalAlloc) / longAnswer,
		float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / longAnswer
}

// A long answer costs about three times its size in allocations (the
// decoded deltas, the accumulator's pages, the history's string) and is
// kept once. The accumulator used to grow by copying: 6.1 allocated.
func TestLongAnswerCostsAFewTimesItsSize(t *testing.T) {
	for _, dialect := range bothDialects {
		t.Run(dialect, func(t *testing.T) {
			allocated, retained := answerCost(t, dialect)
			t.Logf("%s: %.2f bytes allocated and %.2f kept per byte of a %d-byte answer", dialect, allocated, retained, longAnswer)
			if allocated > 4.5 || retained > 1.2 {
				t.Errorf("allocated %.2f and kept %.2f bytes per answer byte, want at most 4.5 and 1.2", allocated, retained)
			}
		})
	}
}

func BenchmarkStreamedAnswer(b *testing.B) {
	for _, dialect := range bothDialects {
		b.Run(dialect, func(b *testing.B) {
			var allocated, retained float64
			for range b.N {
				a, r := answerCost(b, dialect)
				allocated, retained = allocated+a, retained+r
			}
			b.ReportMetric(allocated/float64(b.N), "alloc-bytes/answer-byte")
			b.ReportMetric(retained/float64(b.N), "retained-bytes/answer-byte")
		})
	}
}

package lsp_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/agent-lsp/agent-lsp/lsp/lsptest"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// BenchmarkSteerLatencyDaemon measures a steer message through the daemon
// and its wire: sent (agent/prompt delivery "steer") while a run_bash
// call waits for its agent/approve answer; the clock starts when the
// editor answers it (the call's end, give or take the echo it runs) and
// stops when the fake model receives the next request. Every other
// iteration sends no steer: the reference in the same run. Reported as
// medians: steer-ns, plain-ns, and their difference, steer-cost-ns.
func BenchmarkSteerLatencyDaemon(b *testing.B) {
	asked, release := make(chan struct{}, 1), make(chan struct{})
	s := start(b, providertest.Script{}, setupOptions{quiet: true, caps: approveCaps,
		handlers: lsptest.Handlers{Approve: func(ctx context.Context, p lsptest.ApproveParams) (*lsptest.ApproveAnswer, error) {
			asked <- struct{}{}
			select {
			case <-release:
				return &lsptest.ApproveAnswer{OptionID: "allow_once"}, nil
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}}})
	s.initialize(nil)
	var ns struct {
		SessionID string `json:"sessionId"`
	}
	if err := s.ed.Call(ctx(b), "agent/newSession", map[string]any{}, &ns); err != nil {
		b.Fatal(err)
	}
	sid := ns.SessionID
	arrived := make(chan time.Time, 1)
	stamp := func(providertest.Received) error { arrived <- time.Now(); return nil }
	var steered, plain []time.Duration
	b.ResetTimer()
	for i := range b.N {
		withSteer := i%2 == 0
		s.model.Append(bashCalls("echo slow")[0], providertest.Turn{Text: "ok", Check: stamp})
		_, running := s.ed.CallAsync(ctx(b), "agent/prompt", map[string]any{"sessionId": sid, "prompt": "Run it."})
		<-asked
		var steer <-chan lsptest.CallResult
		if withSteer {
			text := fmt.Sprintf("And this (%d).", i) // awaitQueueUpdate looks at every update received
			_, steer = s.ed.CallAsync(ctx(b), "agent/prompt", map[string]any{"sessionId": sid, "prompt": text, "delivery": "steer"})
			s.awaitQueueUpdate(sid, text)
		}
		end := time.Now()
		release <- struct{}{}
		at := <-arrived
		if r := <-running; r.Err != nil {
			b.Fatal(r.Err)
		}
		if withSteer {
			if r := <-steer; r.Err != nil {
				b.Fatal(r.Err)
			}
			steered = append(steered, at.Sub(end))
		} else {
			plain = append(plain, at.Sub(end))
		}
	}
	b.StopTimer()
	if len(steered) > 0 && len(plain) > 0 {
		ms, mp := medianOf(steered), medianOf(plain)
		b.ReportMetric(float64(ms.Nanoseconds()), "steer-ns")
		b.ReportMetric(float64(mp.Nanoseconds()), "plain-ns")
		b.ReportMetric(float64((ms - mp).Nanoseconds()), "steer-cost-ns")
	}
}

func medianOf(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

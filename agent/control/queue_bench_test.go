package control_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/agent-lsp/agent-lsp/agent/control"
	"github.com/agent-lsp/agent-lsp/permission"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
	"github.com/agent-lsp/agent-lsp/tools"
)

// BenchmarkSteerLatency measures how long a steer message takes to reach
// the model: it is sent while a tool call runs, the call ends at a known
// time (the benchmark releases it), and the clock stops when the fake
// model receives the request carrying the steer. The reference, in the
// same run, is the same round without a steer (tool end to the next
// request). Reported as medians over the iterations: steer-ns, plain-ns,
// and the steer's own cost (their difference).
func BenchmarkSteerLatency(b *testing.B) {
	srv := providertest.NewServer(b, nil, providertest.WithSeed(7))
	cfg := modelConfig(srv)
	client, err := newClient(srv, cfg)
	if err != nil {
		b.Fatal(err)
	}
	ctl := control.New(control.Options{Model: cfg, Provider: client})
	b.Cleanup(func() { _ = ctl.Close() })
	ws, err := tools.NewWorkspace(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	hold := newHoldTool()
	reg := tools.NewRegistry()
	if err := reg.Add(hold); err != nil {
		b.Fatal(err)
	}
	queues := make(chan []control.QueueItem, 16)
	s, err := ctl.NewSession(control.Binding{Workspace: ws, Approver: permission.AutoApprover{}, Tools: reg,
		Notify: func(u control.Update) {
			if u.Kind == control.UpdateQueue && len(u.Queue) > 0 {
				queues <- u.Queue
			}
		}}, "")
	if err != nil {
		b.Fatal(err)
	}

	arrived := make(chan time.Time, 1)
	stamp := func(providertest.Received) error { arrived <- time.Now(); return nil }
	var steered, plain []time.Duration
	b.ResetTimer()
	for i := range b.N {
		withSteer := i%2 == 0
		srv.Append(holdCall, providertest.Turn{Text: "ok", Check: stamp})
		hold.release = make(chan struct{})
		done := make(chan struct{})
		go func() {
			defer close(done)
			_, _ = s.Prompt(context.Background(), control.PromptInput{Text: "work"}, discard)
		}()
		<-hold.started
		var steer chan struct{}
		if withSteer {
			steer = make(chan struct{})
			go func() {
				defer close(steer)
				_, _ = s.Prompt(context.Background(), control.PromptInput{Text: "and this", Delivery: control.DeliverSteer}, discard)
			}()
			<-queues
		}
		end := time.Now()
		close(hold.release)
		at := <-arrived
		<-done
		if withSteer {
			<-steer
			steered = append(steered, at.Sub(end))
		} else {
			plain = append(plain, at.Sub(end))
		}
	}
	b.StopTimer()
	if len(steered) > 0 && len(plain) > 0 {
		ms, mp := median(steered), median(plain)
		b.ReportMetric(float64(ms.Nanoseconds()), "steer-ns")
		b.ReportMetric(float64(mp.Nanoseconds()), "plain-ns")
		b.ReportMetric(float64((ms - mp).Nanoseconds()), "steer-cost-ns")
	}
	if h := s.Agent().History(); len(h) > 0 && h[len(h)-1].Role != "assistant" {
		b.Fatalf("the history ends with %s", h[len(h)-1].Role)
	}
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

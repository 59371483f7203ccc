package agent_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/provider/anthropic"
	"github.com/agent-lsp/agent-lsp/provider/openai"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// spendPricing makes the arithmetic of the caps readable: $1 per million
// tokens in and out, a tenth of that for cached input.
var spendPricing = agent.Pricing{OffPeak: agent.Price{CacheHit: 0.1, CacheMiss: 1, Output: 1}}

// callUsage is what every scripted call reports: $0.1001 at spendPricing.
var callUsage = provider.Usage{PromptTokens: 100_000, CompletionTokens: 100}

const callCost = 0.1001

// spendClock is a fixed clock: the day's ledger file is named by it.
func spendClock() time.Time { return time.Date(2026, 12, 5, 12, 0, 0, 0, time.Local) }

// spendScript is m5's three rounds (two of tools, then the answer), each
// reporting callUsage.
func spendScript() providertest.Script {
	s := m5Script()
	for i := range s {
		s[i].Usage = callUsage
	}
	return s
}

// spendSession is a session on the fake with the test's pricing, clock
// and accounting (sp may be nil).
func spendSession(t *testing.T, dialect string, srv *providertest.Server, root string, sp *agent.Spend) *agent.Session {
	t.Helper()
	return sessionWith(t, dialect, srv, root, func(c *agent.Config) {
		p := spendPricing
		c.Pricing, c.Now, c.Spend, c.MaxTokens = &p, spendClock, sp, 1000
	})
}

type eventLog struct{ events []agent.Event }

func (l *eventLog) OnEvent(e agent.Event) { l.events = append(l.events, e) }

func (l *eventLog) warnings() []string {
	var out []string
	for _, e := range l.events {
		if e.Spend != nil {
			out = append(out, e.Spend.Warnings...)
		}
	}
	return out
}

// TestSessionCapStopsBeforeTheRequestAndRaisingItContinues: with a cap of
// $0.201, the third request (two calls spent, $0.2002, plus its projected
// cost) is not sent; the prompt ends with spend_limit and a notice that
// names the cap; raising the cap and continuing sends exactly the request
// that was refused (the requests are byte for byte those of a run without
// a cap) and the turn ends as it would have.
func TestSessionCapStopsBeforeTheRequestAndRaisingItContinues(t *testing.T) {
	for _, d := range []string{openai.Name, anthropic.Name} {
		t.Run(d, func(t *testing.T) {
			root := javaProject(t)
			ref := providertest.NewServer(t, spendScript(), providertest.WithSeed(5))
			if o := spendSession(t, d, ref, root, nil).Prompt(t.Context(), m5Question, nil); o.StopReason != agent.StopEndTurn {
				t.Fatalf("reference run: %+v", o)
			}

			srv := providertest.NewServer(t, spendScript(), providertest.WithSeed(5))
			sp := agent.NewSpend(agent.SpendLimit{SessionUSD: 0.201, WarnAt: 0.9}, nil, root, spendClock)
			s := spendSession(t, d, srv, root, sp)
			var l eventLog
			o := s.Prompt(t.Context(), m5Question, &l)
			if o.StopReason != agent.StopSpendLimit || o.Rounds != 2 {
				t.Fatalf("outcome %+v, want spend_limit after 2 rounds", o)
			}
			if n := len(srv.Requests()); n != 2 {
				t.Fatalf("the fake got %d requests, want 2: the third would cross the cap", n)
			}
			if !strings.Contains(o.Notice, "the session's cap is $0.201") || !strings.Contains(o.Notice, "/budget") {
				t.Errorf("notice %q does not say which cap and how to go on", o.Notice)
			}
			if last := l.events[len(l.events)-1]; last.Kind != agent.EventPromptEnd || last.Notice != o.Notice {
				t.Errorf("last event %+v", last)
			}
			if w := l.warnings(); len(w) != 1 || !strings.Contains(w[0], "of the session's cap spent") {
				t.Errorf("warnings %q, want one at 90%% of the cap", w)
			}
			if !s.AwaitsModel() {
				t.Fatal("the history does not await the model after the refusal")
			}

			lim := sp.Limit()
			lim.SessionUSD = 1
			sp.SetLimit(lim)
			o = s.Continue(t.Context(), &l)
			if o.StopReason != agent.StopEndTurn || o.Text != m5Answer {
				t.Fatalf("continued: %+v", o)
			}
			got, want := srv.Requests(), ref.Requests()
			if len(got) != len(want) {
				t.Fatalf("%d requests, want %d", len(got), len(want))
			}
			for i := range got {
				if got[i].Rejected != "" {
					t.Errorf("request %d rejected: %s", i, got[i].Rejected)
				}
				if !bytes.Equal(got[i].Body, want[i].Body) {
					t.Errorf("request %d differs from the run without a cap:\n%s\n%s", i, got[i].Body, want[i].Body)
				}
			}
			if st := sp.Status(); st.SessionUSD < 3*callCost-1e-9 || st.SessionUSD > 3*callCost+1e-9 {
				t.Errorf("session spend $%f, want $%f", st.SessionUSD, 3*callCost)
			}
		})
	}
}

// TestDayCapHoldsAcrossSessionsAndRestarts: two sessions, each with its
// own ledger opened on one directory (two daemons), share the day's cap:
// the second session's request is refused although the second alone spent
// less than the cap; a ledger opened afterwards (a restart) reads the
// day's spend back.
func TestDayCapHoldsAcrossSessionsAndRestarts(t *testing.T) {
	for _, d := range []string{openai.Name, anthropic.Name} {
		t.Run(d, func(t *testing.T) {
			dir, root := t.TempDir(), javaProject(t)
			oneAnswer := func() providertest.Script {
				return providertest.Script{{Text: "one", Usage: callUsage}, {Text: "two", Usage: callUsage}}
			}
			limit := agent.SpendLimit{DayUSD: 0.15}
			session := func(srv *providertest.Server) (*agent.Session, *agent.Spend) {
				ledger, err := agent.OpenDayLedger(dir, nil)
				if err != nil {
					t.Fatal(err)
				}
				sp := agent.NewSpend(limit, ledger, root, spendClock)
				return spendSession(t, d, srv, root, sp), sp
			}
			srvA := providertest.NewServer(t, oneAnswer())
			a, _ := session(srvA)
			if o := a.Prompt(t.Context(), "first", nil); o.StopReason != agent.StopEndTurn {
				t.Fatalf("session A: %+v", o)
			}

			srvB := providertest.NewServer(t, oneAnswer())
			b, spB := session(srvB)
			if o := b.Prompt(t.Context(), "second", nil); o.StopReason != agent.StopEndTurn {
				t.Fatalf("session B's first prompt: %+v ($%.4f of the day spent before it)", o, callCost)
			}
			o := b.Prompt(t.Context(), "third", nil)
			if o.StopReason != agent.StopSpendLimit || !strings.Contains(o.Notice, "the day's cap") {
				t.Fatalf("session B's second prompt: %+v, want spend_limit at the day's cap", o)
			}
			if n := len(srvB.Requests()); n != 1 {
				t.Fatalf("session B sent %d requests, want 1", n)
			}
			if st := spB.Status(); st.SessionUSD > callCost+1e-9 || st.DayUSD < 2*callCost-1e-9 {
				t.Errorf("session B's status %+v: its own spend is one call, the day's two", st)
			}

			_, restarted := session(providertest.NewServer(t, nil))
			if st := restarted.Status(); st.DayUSD < 2*callCost-1e-9 || st.DayUSD > 2*callCost+1e-9 || st.WorkspaceDayUSD != st.DayUSD {
				t.Errorf("after a restart the day's spend is %+v, want $%f in this workspace", st, 2*callCost)
			}
		})
	}
}

// TestUnpricedModelIsHeldByTheTokenCap: a model without a price cannot be
// held by the dollar cap; the user is told once, and the default token cap
// holds instead (two calls of 700,000 tokens spent, the third, projected
// from them at about as many again, refused).
func TestUnpricedModelIsHeldByTheTokenCap(t *testing.T) {
	for _, d := range []string{openai.Name, anthropic.Name} {
		t.Run(d, func(t *testing.T) {
			script := spendScript()
			for i := range script {
				script[i].Usage = provider.Usage{PromptTokens: 700_000, CompletionTokens: 100}
			}
			srv := providertest.NewServer(t, script, providertest.WithSeed(5))
			sp := agent.NewSpend(agent.SpendLimit{SessionUSD: 0.01}, nil, "", spendClock)
			s := sessionWith(t, d, srv, javaProject(t), func(c *agent.Config) {
				c.Model, c.Spend, c.Now, c.MaxTokens = "a-model-without-a-price", sp, spendClock, 1000
			})
			var l eventLog
			o := s.Prompt(t.Context(), m5Question, &l)
			if o.StopReason != agent.StopSpendLimit || len(srv.Requests()) != 2 {
				t.Fatalf("outcome %+v after %d requests, want spend_limit after 2", o, len(srv.Requests()))
			}
			if !strings.Contains(o.Notice, "token cap is 2000000 tokens") {
				t.Errorf("notice %q does not name the default token cap", o.Notice)
			}
			w := l.warnings()
			if len(w) == 0 || !strings.Contains(w[0], "has no price: the dollar cap cannot hold") {
				t.Fatalf("warnings %q: the first must say the dollar cap cannot hold", w)
			}
			noPrice := 0
			for _, line := range w {
				if strings.Contains(line, "has no price") {
					noPrice++
				}
			}
			if noPrice != 1 {
				t.Errorf("the missing price was told %d times, want once: %q", noPrice, w)
			}
		})
	}
}

// TestSharedAccountingCountsEverySession: a second Session given the first
// one's accounting (a subagent's) is refused by what the first spent.
func TestSharedAccountingCountsEverySession(t *testing.T) {
	for _, d := range []string{openai.Name, anthropic.Name} {
		t.Run(d, func(t *testing.T) {
			root := javaProject(t)
			sp := agent.NewSpend(agent.SpendLimit{SessionUSD: 0.102}, nil, root, spendClock)
			parent := spendSession(t, d, providertest.NewServer(t, providertest.Script{{Text: "done", Usage: callUsage}}), root, sp)
			if o := parent.Prompt(t.Context(), "first", nil); o.StopReason != agent.StopEndTurn {
				t.Fatalf("parent: %+v", o)
			}
			srv := providertest.NewServer(t, providertest.Script{{Text: "child", Usage: callUsage}})
			child := spendSession(t, d, srv, root, parent.SpendAccount())
			if o := child.Prompt(t.Context(), "a subtask", nil); o.StopReason != agent.StopSpendLimit || len(srv.Requests()) != 0 {
				t.Fatalf("child: %+v after %d requests, want spend_limit before any", o, len(srv.Requests()))
			}
		})
	}
}

// compactingRun is the long compacting session of
// TestLongSessionCompactsAndKeepsCacheablePrefix with spend accounting:
// rounds report what the fake counts (a few thousand tokens, under a cent
// each), summaries summaryUsage.
type compactingRun struct {
	fakes *fakeModels
	s     *agent.Session
	sp    *agent.Spend
}

var summaryUsage = provider.Usage{PromptTokens: 500_000} // $0.5

func newCompactingRun(t *testing.T, dialect, root string, prompts int, limit agent.SpendLimit) compactingRun {
	t.Helper()
	rounds, summaries := longSessionScript(prompts), summaryScript(prompts)
	for i := range summaries {
		summaries[i].Usage = summaryUsage
	}
	fakes := newFakeModels(t, rounds, summaries)
	cfg, sys := builtinConfig(t, fakes.provider(t, dialect), root)
	p := spendPricing
	sp := agent.NewSpend(limit, nil, root, spendClock)
	cfg.Budget, cfg.Keep, cfg.Pricing, cfg.Now, cfg.Spend = 4000, 4, &p, spendClock, sp
	return compactingRun{fakes: fakes, s: agent.NewSession(cfg, sys), sp: sp}
}

func question(i int) string {
	return "Question " + string(rune('A'+i)) + ": what is in " + javaFiles[i%len(javaFiles)] + "?"
}

// TestCompactionSummaryCostCounts: the summary call's $0.5 counts against
// the session's cap of $0.5, so the round request after it is not sent
// (the rounds alone cost a few cents); going on sends it.
func TestCompactionSummaryCostCounts(t *testing.T) {
	for _, d := range []string{openai.Name, anthropic.Name} {
		t.Run(d, func(t *testing.T) {
			const prompts = 20
			r := newCompactingRun(t, d, javaProject(t), prompts, agent.SpendLimit{SessionUSD: 0.5})
			var stopped int
			var compacted *agent.SpendStatus
			l := agent.ListenerFunc(func(e agent.Event) {
				if e.Kind == agent.EventCompacted && compacted == nil {
					compacted = e.Spend
				}
			})
			for i := range prompts {
				o := r.s.Prompt(t.Context(), question(i), l)
				if o.StopReason == agent.StopSpendLimit {
					stopped = i + 1
					break
				}
				if o.StopReason != agent.StopEndTurn {
					t.Fatalf("prompt %d: %+v", i+1, o)
				}
			}
			if stopped == 0 || compacted == nil {
				t.Fatalf("no prompt stopped at the cap (compacted: %v): the summary's cost did not count", compacted != nil)
			}
			if compacted.SessionUSD < float64(summaryUsage.PromptTokens)/1e6 {
				t.Errorf("the compacted event's spend $%f leaves out the summary's $0.5", compacted.SessionUSD)
			}
			if n := len(r.fakes.summaries.Requests()); n != 1 {
				t.Fatalf("%d summary calls, want 1", n)
			}
			rounds := len(r.fakes.rounds.Requests())
			lim := r.sp.Limit()
			lim.SessionUSD = 10
			r.sp.SetLimit(lim)
			if o := r.s.Continue(t.Context(), nil); o.StopReason != agent.StopEndTurn {
				t.Fatalf("continued: %+v", o)
			}
			if n := len(r.fakes.rounds.Requests()); n <= rounds {
				t.Fatalf("continuing sent no round request (%d before, %d after)", rounds, n)
			}
		})
	}
}

// TestRefusedSummaryCallLeavesTheHistoryAndContinues: a cap that the
// compaction's summary call would cross stops the prompt before it, with
// the history untouched; raising the cap and going on sends the summary
// and the rounds a run without the cap sent, byte for byte.
func TestRefusedSummaryCallLeavesTheHistoryAndContinues(t *testing.T) {
	for _, d := range []string{openai.Name, anthropic.Name} {
		t.Run(d, func(t *testing.T) {
			const prompts = 20
			root := javaProject(t)
			ref := newCompactingRun(t, d, root, prompts, agent.SpendLimit{})
			roundsSeen, summaryAfter := 0, 0 // the round requests sent before the first summary call
			count := agent.ListenerFunc(func(e agent.Event) {
				switch {
				case e.Kind == agent.EventRoundEnd:
					roundsSeen++
				case e.Kind == agent.EventCompacted && e.Usage.PromptTokens > 0 && summaryAfter == 0:
					summaryAfter = roundsSeen
				}
			})
			for i := range prompts {
				if o := ref.s.Prompt(t.Context(), question(i), count); o.StopReason != agent.StopEndTurn {
					t.Fatalf("reference prompt %d: %+v", i+1, o)
				}
			}
			if summaryAfter == 0 {
				t.Fatal("the reference run never made a summary call")
			}

			r := newCompactingRun(t, d, root, prompts, agent.SpendLimit{})
			rounds := 0
			capAtSummary := agent.ListenerFunc(func(e agent.Event) {
				if e.Kind == agent.EventRoundEnd {
					if rounds++; rounds == summaryAfter { // the call is counted: the next is the summary
						r.sp.SetLimit(agent.SpendLimit{SessionUSD: r.sp.Status().SessionUSD + 0.000_01})
					}
				}
			})
			next := 0
			for ; next < prompts; next++ {
				o := r.s.Prompt(t.Context(), question(next), capAtSummary)
				if o.StopReason == agent.StopSpendLimit {
					break
				}
				if o.StopReason != agent.StopEndTurn {
					t.Fatalf("prompt %d: %+v", next+1, o)
				}
			}
			if n, m := len(r.fakes.summaries.Requests()), len(r.fakes.rounds.Requests()); n != 0 || m != summaryAfter {
				t.Fatalf("%d summary and %d round requests sent, want 0 and %d: the summary call must be refused", n, m, summaryAfter)
			}
			hist := r.s.History()
			if !r.s.AwaitsModel() || slicesHaveSummary(hist) {
				t.Fatalf("the history changed at the refusal: last %+v", hist[len(hist)-1])
			}
			r.sp.SetLimit(agent.SpendLimit{SessionUSD: 10})
			if o := r.s.Continue(t.Context(), nil); o.StopReason != agent.StopEndTurn {
				t.Fatalf("continued: %+v", o)
			}
			for i := next + 1; i < prompts; i++ {
				if o := r.s.Prompt(t.Context(), question(i), nil); o.StopReason != agent.StopEndTurn {
					t.Fatalf("prompt %d: %+v", i+1, o)
				}
			}
			for _, pair := range [][2][]providertest.Received{
				{r.fakes.summaries.Requests(), ref.fakes.summaries.Requests()},
				{r.fakes.rounds.Requests(), ref.fakes.rounds.Requests()},
			} {
				got, want := pair[0], pair[1]
				if len(got) != len(want) {
					t.Fatalf("%d requests, want %d", len(got), len(want))
				}
				for i := range got {
					if !bytes.Equal(got[i].Body, want[i].Body) || got[i].Rejected != "" {
						t.Errorf("request %d differs from the run without a cap (or was rejected: %q)", i, got[i].Rejected)
					}
				}
			}
		})
	}
}

func slicesHaveSummary(h []provider.Message) bool {
	for _, m := range h {
		if _, ok := agent.SummaryOf(m); ok {
			return true
		}
	}
	return false
}

// TestOverflowSummaryRefusedAtTheCap: the server refuses a request as too
// long; the compaction that recovers needs a summary call the cap does not
// allow (its input, the long first prompt, is uncached; the round's is
// cached): the prompt stops at the cap instead of going on with a history
// cut to fit, and raising the cap goes on with the summary, then the round.
func TestOverflowSummaryRefusedAtTheCap(t *testing.T) {
	for _, d := range []string{openai.Name, anthropic.Name} {
		t.Run(d, func(t *testing.T) {
			srv := providertest.NewServer(t, providertest.Script{
				{Text: "Noted."},
				{Fault: &providertest.Fault{Status: 400, Body: overflowBodies[d]}},
				{Text: "Summary: the user pasted notes."},
				{Text: "They are notes."},
			}, providertest.WithSeed(15))
			sp := agent.NewSpend(agent.SpendLimit{}, nil, "", spendClock)
			s := sessionWith(t, d, srv, t.TempDir(), func(c *agent.Config) {
				p := spendPricing
				c.Pricing, c.Now, c.Spend, c.Keep = &p, spendClock, sp, 2
			})
			notes := strings.Repeat("a note of the pasted text, long enough to count. ", 500)
			if o := s.Prompt(t.Context(), "Keep these: "+notes, nil); o.StopReason != agent.StopEndTurn {
				t.Fatalf("first prompt: %+v", o)
			}
			// Room for the round (its prefix cached) but not for a summary
			// of the notes at the uncached price.
			sp.SetLimit(agent.SpendLimit{SessionUSD: sp.Status().SessionUSD + 0.006})
			o := s.Prompt(t.Context(), "What are they?", nil)
			if o.StopReason != agent.StopSpendLimit || len(srv.Requests()) != 2 {
				t.Fatalf("second prompt: %+v after %d requests, want spend_limit after 2", o, len(srv.Requests()))
			}
			sp.SetLimit(agent.SpendLimit{SessionUSD: 10})
			if o := s.Continue(t.Context(), nil); o.StopReason != agent.StopEndTurn || o.Text != "They are notes." {
				t.Fatalf("continued: %+v", o)
			}
			if n := len(srv.Requests()); n != 4 {
				t.Errorf("%d requests, want 4: the summary and the round sent once each", n)
			}
		})
	}
}

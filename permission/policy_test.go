package permission

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agent-lsp/agent-lsp/internal/await"
)

// scriptedApprover answers with a fixed decision and records every call.
type scriptedApprover struct {
	mu       sync.Mutex
	decision Decision
	err      error
	calls    []approveCall
	// gate, when set, blocks each Approve until it receives a value (or
	// the context ends); entered is signalled on entry.
	gate    chan struct{}
	entered chan struct{}

	inFlight, maxInFlight atomic.Int32
}

type approveCall struct {
	action Action
	offer  bool
}

func (s *scriptedApprover) Approve(ctx context.Context, a Action, offer bool) (Decision, error) {
	n := s.inFlight.Add(1)
	defer s.inFlight.Add(-1)
	for {
		m := s.maxInFlight.Load()
		if n <= m || s.maxInFlight.CompareAndSwap(m, n) {
			break
		}
	}
	s.mu.Lock()
	s.calls = append(s.calls, approveCall{a, offer})
	s.mu.Unlock()
	if s.entered != nil {
		s.entered <- struct{}{}
	}
	if s.gate != nil {
		select {
		case <-s.gate:
		case <-ctx.Done():
			return Deny, ctx.Err()
		}
	}
	return s.decision, s.err
}

func (s *scriptedApprover) callCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.calls)
}

func bash(scope string, r Risk) Action {
	return Action{Tool: "run_bash", Summary: "run: " + scope, Scope: scope, Risk: r, Command: scope}
}

func TestPolicyMatrix(t *testing.T) {
	cases := []struct {
		name      string
		action    Action
		decision  Decision
		err       error
		allowed   bool
		reason    string
		asked     bool
		offerSeen bool
	}{
		{"read-only low runs without asking", Action{Tool: "read_file", ReadOnly: true, Risk: Low}, Deny, nil, true, "", false, false},
		{"read-only medium runs without asking", Action{Tool: "grep", ReadOnly: true, Risk: Medium}, Deny, nil, true, "", false, false},
		{"read-only high is asked", Action{Tool: "read_file", ReadOnly: true, Risk: High}, AllowOnce, nil, true, "", true, false},
		{"medium asked with session offered", bash("go test", Medium), AllowOnce, nil, true, "", true, true},
		{"high asked without session offered", bash("git push", High), AllowOnce, nil, true, "", true, false},
		{"deny reaches the model", bash("rm", Medium), Deny, nil, false, "denied by the user", true, true},
		{"approver error denies", bash("rm", Medium), Deny, errors.New("popup closed"), false, "approval failed: popup closed", true, true},
		{"critical refused without asking", Action{Tool: "run_bash", Risk: Critical, Reasons: []string{"recursive delete of /"}}, AllowSession, nil, false, "refused: CRITICAL risk: recursive delete of /", false, false},
		{"critical without reasons names the summary", Action{Tool: "run_bash", Summary: "run: x", Risk: Critical}, AllowSession, nil, false, "refused: CRITICAL risk: run: x", false, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ap := &scriptedApprover{decision: tc.decision, err: tc.err}
			v, err := NewPolicy(ap).Check(context.Background(), tc.action)
			if err != nil {
				t.Fatalf("error %v", err)
			}
			if v.Allowed != tc.allowed || v.Reason != tc.reason {
				t.Fatalf("verdict %+v, want allowed=%v reason=%q", v, tc.allowed, tc.reason)
			}
			if asked := ap.callCount() > 0; asked != tc.asked {
				t.Fatalf("asked=%v, want %v", asked, tc.asked)
			}
			if tc.asked && ap.calls[0].offer != tc.offerSeen {
				t.Fatalf("offerSession=%v, want %v", ap.calls[0].offer, tc.offerSeen)
			}
		})
	}
}

func TestPolicyCriticalRefusedEvenWithAutoApprover(t *testing.T) {
	p := NewPolicy(AutoApprover{})
	a := bash("rm", Critical)
	a.Reasons = []string{"recursive delete of /"}
	v, err := p.Check(context.Background(), a)
	if err != nil || v.Allowed || v.Reason != "refused: CRITICAL risk: recursive delete of /" {
		t.Fatalf("verdict %+v, err %v", v, err)
	}
	if v, _ := p.Check(context.Background(), bash("rm", High)); !v.Allowed {
		t.Fatalf("auto approver denied HIGH: %+v", v)
	}
}

func TestPolicySessionGrant(t *testing.T) {
	ctx := context.Background()
	ap := &scriptedApprover{decision: AllowSession}
	p := NewPolicy(ap)
	check := func(a Action) Verdict {
		t.Helper()
		v, err := p.Check(ctx, a)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	check(bash("go test", Medium))
	if n := ap.callCount(); n != 1 {
		t.Fatalf("asked %d times", n)
	}
	// Same tool and scope: remembered.
	if v := check(bash("go test", Low)); !v.Allowed || ap.callCount() != 1 {
		t.Fatalf("granted scope asked again: %+v, %d calls", v, ap.callCount())
	}
	// Other scope, or other tool with the same scope: asked.
	check(bash("go build", Medium))
	check(Action{Tool: "edit_file", Scope: "go test", Risk: Medium})
	if n := ap.callCount(); n != 3 {
		t.Fatalf("asked %d times, want 3", n)
	}
	// HIGH within a granted scope is asked anyway, without the session offer.
	check(bash("go test", High))
	if n := ap.callCount(); n != 4 || ap.calls[3].offer {
		t.Fatalf("HIGH in granted scope: %d calls, offer %v", n, ap.calls[len(ap.calls)-1].offer)
	}
	// Forget drops the grants.
	p.Forget()
	check(bash("go test", Medium))
	if n := ap.callCount(); n != 5 {
		t.Fatalf("after Forget asked %d times, want 5", n)
	}
}

func TestPolicyHighSessionAnswerCountsOnce(t *testing.T) {
	ap := &scriptedApprover{decision: AllowSession}
	p := NewPolicy(ap)
	ctx := context.Background()
	if v, _ := p.Check(ctx, bash("git push", High)); !v.Allowed {
		t.Fatalf("denied: %+v", v)
	}
	if v, _ := p.Check(ctx, bash("git push", Medium)); !v.Allowed || ap.callCount() != 2 {
		t.Fatalf("AllowSession for HIGH was remembered: %d calls", ap.callCount())
	}
}

func TestPolicyDenyAllAndNoApprover(t *testing.T) {
	ctx := context.Background()
	v, _ := NewPolicy(DenyAll{Reason: "no one to ask: run with --yes"}).Check(ctx, bash("ls", Medium))
	if v.Allowed || v.Reason != "denied: no one to ask: run with --yes" {
		t.Fatalf("DenyAll verdict %+v", v)
	}
	v, _ = NewPolicy(DenyAll{}).Check(ctx, bash("ls", Medium))
	if v.Allowed || v.Reason != ReasonDenied {
		t.Fatalf("DenyAll{} verdict %+v", v)
	}
	v, _ = NewPolicy(nil).Check(ctx, bash("ls", Medium))
	if v.Allowed || v.Reason != "approval failed: no approver configured" {
		t.Fatalf("nil approver verdict %+v", v)
	}
	p := NewPolicy(nil)
	p.SetApprover(AutoApprover{})
	if v, _ := p.Check(ctx, bash("ls", Medium)); !v.Allowed {
		t.Fatalf("SetApprover not used: %+v", v)
	}
}

func TestPolicyCancelWhileWaitingForTurn(t *testing.T) {
	ap := &scriptedApprover{decision: AllowOnce, gate: make(chan struct{}), entered: make(chan struct{}, 4)}
	p := NewPolicy(ap)
	first := make(chan error, 1)
	go func() {
		_, err := p.Check(context.Background(), bash("a", Medium))
		first <- err
	}()
	<-ap.entered // the first question is open

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	v, err := p.Check(ctx, bash("b", Medium))
	if !errors.Is(err, context.DeadlineExceeded) || v.Allowed {
		t.Fatalf("waiting Check: %+v, %v", v, err)
	}
	if n := ap.callCount(); n != 1 {
		t.Fatalf("cancelled Check reached the approver: %d calls", n)
	}
	ap.gate <- struct{}{}
	if err := <-first; err != nil {
		t.Fatal(err)
	}
}

func TestPolicyCancelWhileAsking(t *testing.T) {
	ap := &scriptedApprover{gate: make(chan struct{}), entered: make(chan struct{}, 1)}
	p := NewPolicy(ap)
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-ap.entered; cancel() }()
	if _, err := p.Check(ctx, bash("a", Medium)); !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v, want context.Canceled", err)
	}
	// The turn was released.
	ap2 := &scriptedApprover{decision: AllowOnce}
	p.SetApprover(ap2)
	if v, err := p.Check(context.Background(), bash("a", Medium)); err != nil || !v.Allowed {
		t.Fatalf("after cancel: %+v, %v", v, err)
	}
}

func TestPolicySerializesQuestions(t *testing.T) {
	ap := &scriptedApprover{decision: AllowOnce, gate: make(chan struct{})}
	p := NewPolicy(ap)
	const n = 8
	queued := make(chan struct{}, n)
	p.queued = func() { queued <- struct{}{} }
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if v, err := p.Check(context.Background(), bash(string(rune('a'+i)), Medium)); err != nil || !v.Allowed {
				t.Errorf("check %d: %+v, %v", i, v, err)
			}
		}()
	}
	for range n { // all of them pile up on the turn
		await.Event(t, queued, "a Check to wait for its turn")
	}
	for range n {
		ap.gate <- struct{}{}
	}
	wg.Wait()
	if m := ap.maxInFlight.Load(); m != 1 {
		t.Fatalf("%d questions open at once", m)
	}
	if c := ap.callCount(); c != n {
		t.Fatalf("%d questions, want %d", c, n)
	}
}

func TestPolicyRechecksGrantAfterWaiting(t *testing.T) {
	ap := &scriptedApprover{decision: AllowSession, gate: make(chan struct{}), entered: make(chan struct{}, 4)}
	p := NewPolicy(ap)
	queued := make(chan struct{}, 2)
	p.queued = func() { queued <- struct{}{} }
	results := make(chan Verdict, 2)
	for range 2 {
		go func() {
			v, _ := p.Check(context.Background(), bash("go test", Medium))
			results <- v
		}()
	}
	await.Event(t, ap.entered, "the first Check to ask")
	await.Event(t, queued, "a Check to wait for its turn")
	await.Event(t, queued, "the second Check to wait for its turn")
	close(ap.gate) // without the re-check the second call would be asked too
	for range 2 {
		if v := <-results; !v.Allowed {
			t.Fatalf("denied: %+v", v)
		}
	}
	if c := ap.callCount(); c != 1 {
		t.Fatalf("asked %d times; the second call should reuse the fresh grant", c)
	}
}

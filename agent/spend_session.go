package agent

import (
	"context"
	"errors"
	"fmt"

	"github.com/agent-lsp/agent-lsp/provider"
)

// StopSpendLimit: the next model request could have crossed a spend cap
// (Config.Spend), so it was not sent. The history is whole (the stop comes
// before a request, never between a tool call and its result); Continue
// sends that same request once the cap is raised.
const StopSpendLimit StopReason = "spend_limit"

// SpendAccount is the accounting this session's calls pass through (nil:
// none): a Session made for a subagent of this one is given it
// (Config.Spend), so that its calls count against the same caps.
func (s *Session) SpendAccount() *Spend { return s.cfg.Spend }

// admitSpend projects what req may cost and refuses it when that could
// cross a cap: input at the cache-aware price (the prefix this request
// shares with the session's previous one is taken as cached, as the
// providers' prefix caches read it) plus max_tokens of output.
func (s *Session) admitSpend(m modelState, req provider.Request) error {
	sp := s.cfg.Spend
	if sp == nil {
		return nil
	}
	maxOut := req.MaxTokens
	if maxOut <= 0 {
		maxOut = provider.DefaultMaxTokens
	}
	s.mu.Lock()
	input := s.calib.estimate(req.Messages, req.Tools)
	cached := 0
	if s.spendPrevModel == req.Model {
		cached = min(input, s.calib.estimate(req.Messages[:sharedPrefix(s.spendPrev, req.Messages)], req.Tools))
	}
	s.mu.Unlock()
	p := projection{priced: m.pricing != nil, tokens: input + maxOut, model: req.Model}
	if m.pricing != nil {
		p.usd = m.pricing.At(s.cfg.Now()).Cost(provider.Usage{PromptTokens: input, CachedTokens: cached, CompletionTokens: maxOut})
	}
	if err := sp.admit(p); err != nil {
		return err
	}
	s.mu.Lock()
	s.spendPrev, s.spendPrevModel = req.Messages, req.Model
	s.mu.Unlock()
	return nil
}

// sharedPrefix is how many leading messages next shares with prev: the
// prefix the provider's cache holds from the previous request. Messages
// are compared by their fields (an append that grew the history moved
// them, so their addresses cannot say it), as checkpoint.go compares them.
func sharedPrefix(prev, next []provider.Message) int {
	n := 0
	for n < len(prev) && n < len(next) && sameMessage(prev[n], next[n]) {
		n++
	}
	return n
}

// chargeSpend counts a call that was made.
func (s *Session) chargeSpend(cost float64, u provider.Usage) {
	if s.cfg.Spend != nil {
		s.cfg.Spend.charge(cost, u.PromptTokens+u.CompletionTokens, s.id)
	}
}

// spendStatus is what the events of a call carry (nil without accounting).
func (s *Session) spendStatus() *SpendStatus {
	if s.cfg.Spend == nil {
		return nil
	}
	st := s.cfg.Spend.Status()
	return &st
}

// spendStopped ends the prompt at the cap when err is a refusal: the
// refused request was no round.
func spendStopped(err error, o *Outcome) bool {
	if _, ok := errors.AsType[*SpendLimitError](err); !ok {
		return false
	}
	o.StopReason, o.Err = StopSpendLimit, nil
	return true
}

// isSpendLimit reports whether err is a refusal at a cap.
func isSpendLimit(err error) bool {
	_, ok := errors.AsType[*SpendLimitError](err)
	return ok
}

// spendNotice is the prompt's last line when it stopped at a cap.
func (s *Session) spendNotice() string {
	if s.cfg.Spend == nil {
		return ""
	}
	return s.cfg.Spend.refusal()
}

func (s *Session) setCapped(c bool) {
	s.mu.Lock()
	s.capped = c
	s.mu.Unlock()
}

// StoppedAtCap reports whether the last prompt stopped at a spend cap
// (StopSpendLimit): Continue goes on with it.
func (s *Session) StoppedAtCap() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.capped
}

// AwaitsModel reports whether the conversation's next step is a model
// request (it ends with the user's prompt or with tool results): what
// Continue sends.
func (s *Session) AwaitsModel() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := len(s.history)
	return n > 0 && (s.history[n-1].Role == provider.RoleUser || s.history[n-1].Role == provider.RoleTool)
}

// Continue goes on with a turn that stopped before a model request (at a
// spend cap): it adds no message and sends the request the history calls
// for, the one that was refused. It waits for a running prompt as Prompt
// does; events go to l, the last one prompt_end.
func (s *Session) Continue(ctx context.Context, l Listener) Outcome {
	out := &serialListener{l: l}
	select {
	case s.busy <- struct{}{}:
	case <-ctx.Done():
		return s.end(out, Outcome{StopReason: StopCancelled, Err: context.Cause(ctx)})
	}
	defer func() { <-s.busy }()
	if ctx.Err() != nil {
		return s.end(out, Outcome{StopReason: StopCancelled, Err: context.Cause(ctx)})
	}
	if !s.AwaitsModel() {
		return s.end(out, Outcome{StopReason: StopError, Err: fmt.Errorf("nothing to continue: the last turn ended")})
	}
	s.mu.Lock()
	s.out = out
	s.mu.Unlock()
	o := s.run(ctx, out)
	s.mu.Lock()
	s.out = nil
	s.mu.Unlock()
	s.commit()
	s.collectContent()
	return s.end(out, o)
}

package agent

import (
	"slices"

	"go.uber.org/zap"

	"github.com/agent-lsp/agent-lsp/provider"
)

// account adds one model call to the running totals, priced at the moment
// it ended, and queues its usage record. promptMessages and toolTokens
// describe the request (0 for a call that is not a round of the
// conversation, such as a summary), so a resumed session can calibrate.
// A model without a price leaves the call unpriced (priced false, cost 0).
func (s *Session) account(u provider.Usage, promptMessages, toolTokens int) (cost float64, priced bool, t Totals) {
	now := s.cfg.Now()
	defer func() { s.chargeSpend(cost, u) }() // after the unlock: it may write the day's ledger
	s.mu.Lock()
	defer s.mu.Unlock()
	if p := s.model.pricing; p != nil {
		cost, priced = p.At(now).Cost(u), true
	}
	s.totals = s.totals.add(u, cost, priced)
	if s.cfg.Store != nil {
		s.pending = append(s.pending, record{Type: recUsage, Usage: &u, Cost: cost, Unpriced: !priced, Time: &now,
			PromptMessages: promptMessages, ToolTokens: toolTokens})
	}
	return cost, priced, s.totals
}

// calibrate records what a round's usage says about the true prompt size.
func (s *Session) calibrate(u provider.Usage, msgs []provider.Message, toolTokens int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calib.calibrate(u, msgs, toolTokens)
}

// replaceHistory installs a compacted history, accounts for the summary
// call when there was one, and queues the compaction record.
// A compaction without a summary call costs nothing: priced is true.
func (s *Session) replaceHistory(h []provider.Message, c Compaction, summaryUsage provider.Usage) (cost float64, priced bool, t Totals) {
	priced = true
	if c.Summarised > 0 {
		cost, priced, _ = s.account(summaryUsage, 0, 0)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	remapCheckpoints(s.cp.list, s.history, h)
	s.history = h
	s.calib.invalidate()
	if s.cfg.Store != nil {
		s.pending = append(s.pending, record{Type: recCompaction, BeforeTokens: c.BeforeTokens,
			AfterTokens: c.AfterTokens, History: slices.Clone(h)})
	}
	return cost, priced, s.totals
}

// commit writes the queued records as one batch ended by a commit record
// and fsync'd. It is called at the points that make the stored history
// worth keeping: when a prompt starts (its user message), when the model's
// turn is complete (before its tool calls run), as each tool result
// arrives, and when a round or a prompt ends. A batch that leaves tool
// calls unanswered is fine: the loader answers them as interrupted.
//
// Tool results arrive on the registry's goroutines: writeMu keeps one
// batch at a time, in the order they were taken.
//
// A failed write ends persistence for this session (a half-written batch
// must not be followed by more): it is logged and reported once through
// Config.OnStoreError, and the session goes on in memory.
func (s *Session) commit() {
	if s.cfg.Store == nil {
		return
	}
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	s.mu.Lock()
	if s.storeFailed || len(s.pending) == 0 {
		s.mu.Unlock()
		return
	}
	recs := s.pending
	s.pending = nil
	if !s.started {
		created := s.created
		header := record{Type: recSession, ID: s.id, Model: s.model.Model, Created: &created, Workspace: s.workspaceRoot(),
			Worktree: s.cfg.Worktree}
		for _, m := range s.history {
			if m.Role == provider.RoleUser {
				header.Title = title(m.Text)
				break
			}
		}
		recs = append([]record{header}, recs...)
	}
	s.mu.Unlock()

	err := s.cfg.Store.appendBatch(s.id, recs)

	s.mu.Lock()
	if err == nil {
		s.started = true
		s.mu.Unlock()
		return
	}
	s.mu.Unlock()
	s.storeFailure(err)
}

// storeFailure ends persistence for this session after a failed write
// (of a record, or of a checkpoint's text), once: nothing more is
// written, and the content store keeps what the written records name.
func (s *Session) storeFailure(err error) {
	s.mu.Lock()
	if s.storeFailed {
		s.mu.Unlock()
		return
	}
	s.storeFailed = true
	s.mu.Unlock()
	s.content.Detach()
	if s.cfg.OnStoreError == nil {
		s.cfg.Logger.Error("session is no longer saved", zap.String("session", s.id), zap.Error(err))
		return
	}
	// The front end tells the user; the log only notes it, so that a log
	// shown on the same terminal does not say it twice.
	s.cfg.Logger.Info("session is no longer saved", zap.String("session", s.id), zap.Error(err))
	s.cfg.OnStoreError(err)
}

// recordResult writes one tool result as soon as its call finished, so a
// crash later in the round keeps it. The history gets the round's results
// together, in call order, once all are in (appendResults); the loader
// puts stored results in call order too.
func (s *Session) recordResult(m provider.Message) {
	if s.cfg.Store == nil {
		return
	}
	s.mu.Lock()
	s.pending = append(s.pending, record{Type: recMessage, Message: &m})
	s.mu.Unlock()
	s.commit()
}

package agent

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"go.uber.org/zap"

	"github.com/agent-lsp/agent-lsp/provider"
)

// guessedWindowShare is the part of what was sent taken as the window when
// a server refuses a request as too long without saying its window: the
// window is below what was sent, by how much is unknown.
const guessedWindowShare = 0.75

// minElidedKeep is the least of a tool result kept (head and tail) when
// results are cut to fit: below that the result says nothing.
const minElidedKeep = 512

// recoverOverflow handles a round whose request the server refused as
// longer than its context window. It learns the window (the server's
// count, else a guess below what was sent), calibrates the estimate from
// the server's count of the request, compacts by force and, when that is
// not enough, cuts oversized tool results. retry says the round should go
// again; otherwise err is what the prompt fails with: err itself when it
// is not an overflow, a message saying what to change when again (the
// round was already retried) or when nothing could be made smaller.
func (s *Session) recoverOverflow(ctx context.Context, err error, round int, again bool,
	msgs []provider.Message, specs []provider.ToolSpec, out *serialListener) (retry bool, _ error) {
	ov, ok := provider.ContextOverflowOf(err)
	if !ok {
		return false, err
	}
	toolTokens := estimateTools(specs)
	if ov.Requested > 0 {
		s.calibrate(provider.Usage{PromptTokens: ov.Requested}, msgs, toolTokens)
	}
	s.mu.Lock()
	sent := s.calib.estimate(msgs, specs)
	s.mu.Unlock()
	window := ov.Limit
	if window <= 0 {
		window = int(float64(sent) * guessedWindowShare)
	}
	if again {
		return false, tooLong(round, window, err)
	}
	s.learnWindow(window)
	budget := s.current().budget

	before := sent
	if _, cerr := s.compact(ctx, specs, round, out, true); cerr != nil {
		if ctx.Err() != nil {
			return false, context.Cause(ctx)
		}
		if isSpendLimit(cerr) {
			return false, cerr // the summary call would cross a cap: the prompt stops there
		}
		s.cfg.Logger.Warn("compaction after an overflow incomplete", zap.Int("round", round), zap.Error(cerr))
	}
	est := s.cutToFit(specs, round, out, budget, false)
	if est >= before {
		return false, tooLong(round, window, err)
	}
	s.cfg.Logger.Info("request too long for the model's context window: compacted, retrying the round",
		zap.Int("round", round), zap.Int("window", window), zap.Int("server_count", ov.Requested),
		zap.Int("before_tokens", before), zap.Int("after_tokens", est), zap.Int("budget", budget))
	return true, nil
}

// cutToFit cuts oversized tool results of the history (fitToolResults)
// when its estimate is over budget, and returns the estimate of the
// history it leaves. With onlyIfFits, a cut that would still leave the
// history over budget is not made: before a request, the results are
// kept whole for the server to judge (its refusal starts the recovery,
// which cuts as far as it can). Only the goroutine holding busy calls it.
func (s *Session) cutToFit(specs []provider.ToolSpec, round int, out *serialListener, budget int, onlyIfFits bool) int {
	toolTokens := estimateTools(specs)
	s.mu.Lock()
	h := slices.Clone(s.history)
	est := s.calib.estimate(h, specs)
	calib := s.calib
	s.mu.Unlock()
	if est <= budget {
		return est
	}
	cut, n := fitToolResults(h, func(h []provider.Message) int {
		return calib.scaled(toolTokens + estimateMessages(h))
	}, budget)
	after := calib.scaled(toolTokens + estimateMessages(cut))
	if n == 0 || (onlyIfFits && after > budget) {
		return est
	}
	c := Compaction{BeforeTokens: est, AfterTokens: after, Elided: n}
	cost, priced, totals := s.replaceHistory(cut, c, provider.Usage{})
	out.emit(Event{Kind: EventCompacted, Round: round, BeforeTokens: c.BeforeTokens, AfterTokens: c.AfterTokens,
		Cost: cost, CostUnknown: !priced, Totals: totals})
	s.cfg.Logger.Info("oversized tool results cut to fit the budget", zap.Int("round", round),
		zap.Int("before_tokens", c.BeforeTokens), zap.Int("after_tokens", c.AfterTokens), zap.Int("cut", n))
	return c.AfterTokens
}

// tooLong is the error of a conversation that does not fit even after
// compaction, saying what the user can change.
func tooLong(round, window int, err error) error {
	return fmt.Errorf("round %d: the conversation does not fit the model's context window of %d tokens even after compaction: "+
		"start the server with a bigger window (llama.cpp -c, Ollama num_ctx) or read smaller parts of files: %w", round, window, err)
}

// learnWindow lowers the budget to budgetShare of a window the server
// said (or showed) it has: the server's refusal outranks a table, a preset
// and a fixed budget, which all said more than it holds.
func (s *Session) learnWindow(window int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.model.budget = min(s.model.budget, int(float64(window)*budgetShare))
	if s.model.window <= 0 || window < s.model.window {
		s.model.window = window
	}
}

// fitToolResults cuts the tool results of h that are longer than a cap to
// their head and tail with a note, halving the cap until estimate says
// the history fits budget or the cap reaches minElidedKeep. It returns the
// new history and how many results were cut; h is not modified.
func fitToolResults(h []provider.Message, estimate func([]provider.Message) int, budget int) ([]provider.Message, int) {
	longest := 0
	for _, m := range h {
		if m.Role == provider.RoleTool {
			longest = max(longest, len(m.Text))
		}
	}
	var (
		out []provider.Message
		n   int
	)
	for limit := longest / 2; limit >= minElidedKeep; limit /= 2 {
		out, n = slices.Clone(h), 0
		for i, m := range out {
			if m.Role == provider.RoleTool && len(m.Text) > limit {
				out[i].Text = elideMiddle(m.Text, limit)
				n++
			}
		}
		if estimate(out) <= budget {
			break
		}
	}
	return out, n
}

// elideMiddle keeps about limit bytes of text, its head and its tail, and
// says how much was left out in between (cut at line ends where it can, so
// that a file's lines stay whole, and never inside a character).
func elideMiddle(text string, limit int) string {
	head, tail := limit/2, len(text)-limit/2
	if i := strings.LastIndexByte(text[:head], '\n'); i > head/2 {
		head = i + 1
	}
	if i := strings.IndexByte(text[tail:], '\n'); i >= 0 && i < limit/4 {
		tail += i + 1
	}
	for head > 0 && !utf8.RuneStart(text[head]) {
		head--
	}
	for tail < len(text) && !utf8.RuneStart(text[tail]) {
		tail++
	}
	return fmt.Sprintf("%s[... %d bytes elided to fit the model's context window ...]\n%s",
		text[:head], tail-head, text[tail:])
}

package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"go.uber.org/zap"

	"github.com/agent-lsp/agent-lsp/provider"
)

// summaryMaxTokens bounds the summary the model writes.
const summaryMaxTokens = 2048

// summaryInstruction asks for the summary. The summary replaces the older
// history in every later request, so it has to carry what the work needs.
const summaryInstruction = `Summarise the conversation below for your own later use: the summary will replace these messages in your context. Keep what the rest of the work needs: the user's requests and constraints, decisions made and why, files read or changed (with paths) and what was found in them, commands run and their results, and what remains to do. Be concise and factual; write notes, not a reply to the user.`

// summaryPrefix opens the summary message, so the model reads it as
// background and not as something the user just said (the Messages
// dialect sends it as user text).
const summaryPrefix = "Summary of the earlier conversation (written by you when the context was compacted):\n\n"

// SummaryOf is the summary a compaction left in m, without the note that
// opens it for the model; ok is false when m is not a compaction summary.
func SummaryOf(m provider.Message) (summary string, ok bool) {
	if m.Role != provider.RoleSystem || !m.Summary {
		return "", false
	}
	return strings.TrimPrefix(m.Text, summaryPrefix), true
}

// Compaction reports what a compaction did.
type Compaction struct {
	BeforeTokens int // estimated request size before
	AfterTokens  int // and after
	Elided       int // old tool outputs replaced by a note
	Summarised   int // messages replaced by the summary (0: no summary call)
}

// Compact compacts the history now, whatever the budget: old tool outputs
// are elided and everything older than the Keep most recent messages is
// summarised by a model call. It waits for a running prompt to end. A
// compacted event goes to l (may be nil) when anything changed. A history
// with nothing older than the kept messages is left as it is.
func (s *Session) Compact(ctx context.Context, l Listener) (Compaction, error) {
	select {
	case s.busy <- struct{}{}:
	case <-ctx.Done():
		return Compaction{}, context.Cause(ctx)
	}
	defer func() { <-s.busy }()
	c, err := s.compact(ctx, s.offeredSpecs(), 0, &serialListener{l: l}, true)
	s.commit()
	return c, err
}

// checkBudget compacts the history when the next request would pass the
// budget and, when compaction is not enough or its summary call failed,
// cuts oversized tool results to their head and tail. Only a cancellation
// is returned: a history still over budget after that goes out anyway.
func (s *Session) checkBudget(ctx context.Context, specs []provider.ToolSpec, round int, out *serialListener) error {
	s.mu.Lock()
	est := s.calib.estimate(s.history, specs)
	s.mu.Unlock()
	budget := s.current().budget
	if est <= budget {
		return nil
	}
	c, err := s.compact(ctx, specs, round, out, false)
	if err != nil {
		if ctx.Err() != nil {
			return context.Cause(ctx)
		}
		if isSpendLimit(err) {
			return err // the summary call would cross a cap: the prompt stops there
		}
		s.cfg.Logger.Warn("compaction incomplete (the summary call failed); cutting oversized tool results",
			zap.Int("round", round), zap.Int("estimate", est), zap.Error(err))
	} else if c.AfterTokens <= budget {
		return nil
	}
	// A request believed over budget is not sent while cutting the kept
	// tool results (head and tail stay) can bring it under: a refusal
	// costs a round trip and, on a local server, the prompt's processing.
	if after := s.cutToFit(specs, round, out, budget, true); after > budget {
		// The server's "too long" answer, if it comes, starts the recovery
		// of overflow.go; the estimate may also be wrong the safe way.
		s.cfg.Logger.Warn("history is over budget even after compaction and cutting tool results; sending it",
			zap.Int("estimate", after), zap.Int("budget", budget), zap.Int("keep", s.cfg.Keep))
	}
	return nil
}

// compact runs the two steps: elide old tool outputs, and, when that is
// not enough (or when forced), summarise the older history. Only the
// goroutine holding busy calls it.
func (s *Session) compact(ctx context.Context, specs []provider.ToolSpec, round int, out *serialListener, force bool) (Compaction, error) {
	s.mu.Lock()
	h := s.history[:len(s.history):len(s.history)]
	before := s.calib.estimate(h, specs)
	calib := s.calib // a copy: the estimate of the new history uses the same ratio
	s.mu.Unlock()
	c := Compaction{BeforeTokens: before, AfterTokens: before}

	lead := leadingSystem(h)
	cut := keepFrom(h, lead, s.cfg.Keep)
	older := h[lead:cut]
	if !compactable(older) {
		s.cfg.Logger.Debug("nothing older than the kept messages to compact", zap.Int("messages", len(h)))
		return c, nil
	}
	s.preCompact(ctx, round == 0)
	elided, n := elide(older)
	toolsEst := estimateTools(specs)
	next := joinHistory(h[:lead], elided, h[cut:])
	c.Elided = n
	var (
		usage provider.Usage
		err   error
	)
	if force || n == 0 || calib.scaled(toolsEst+estimateMessages(next)) > compactTarget(s.current().budget) {
		var summary string
		summary, usage, err = s.summarise(ctx, h[:lead], elided)
		if err == nil {
			next = joinHistory(h[:lead], []provider.Message{{Role: provider.RoleSystem, Summary: true, Text: summaryPrefix + summary}}, h[cut:])
			c.Summarised = len(older)
		} else if n == 0 || ctx.Err() != nil || isSpendLimit(err) {
			return c, err // a refused summary leaves the history as it was: going on sends that same call
		}
		// The summary failed but eliding helped: keep that much.
	}
	c.AfterTokens = calib.scaled(toolsEst + estimateMessages(next))
	cost, priced, totals := s.replaceHistory(next, c, usage)
	out.emit(Event{Kind: EventCompacted, Round: round, BeforeTokens: c.BeforeTokens, AfterTokens: c.AfterTokens,
		Usage: usage, Cost: cost, CostUnknown: !priced, Totals: totals, Spend: s.spendStatus()})
	s.cfg.Logger.Info("history compacted", zap.Int("before_tokens", c.BeforeTokens), zap.Int("after_tokens", c.AfterTokens),
		zap.Int("elided", c.Elided), zap.Int("summarised", c.Summarised), zap.Error(err))
	return c, err
}

// leadingSystem is the length of the system prompt: the leading run of
// system messages that are not a summary.
func leadingSystem(h []provider.Message) int {
	i := 0
	for i < len(h) && h[i].Role == provider.RoleSystem && !h[i].Summary {
		i++
	}
	return i
}

// keepFrom returns the index of the first message kept verbatim: the last
// keep messages, extended back so that no tool result is kept without the
// call that asked for it.
func keepFrom(h []provider.Message, lead, keep int) int {
	cut := max(lead, len(h)-keep)
	for cut > lead && h[cut].Role == provider.RoleTool {
		cut--
	}
	return cut
}

// compactable reports whether older holds anything but an earlier summary.
func compactable(older []provider.Message) bool {
	for _, m := range older {
		if !m.Summary {
			return true
		}
	}
	return false
}

// elisionPrefix opens the note that replaces an old tool output.
const elisionPrefix = "[output elided: "

// elisionNote replaces an old tool output.
func elisionNote(lines int) string { return fmt.Sprintf("%s%d lines]", elisionPrefix, lines) }

// elide returns msgs with every tool output longer than its note replaced
// by the note and every image by its text stand-in, and how many messages
// were changed. msgs is not modified.
func elide(msgs []provider.Message) ([]provider.Message, int) {
	out := make([]provider.Message, len(msgs))
	n := 0
	for i, m := range msgs {
		if im, had := elideImages(m); had {
			m = im
			n++
		}
		if m.Role == provider.RoleTool && !strings.HasPrefix(m.Text, elisionPrefix) {
			note := elisionNote(strings.Count(m.Text, "\n") + 1)
			if len(note) < len(m.Text) {
				m.Text = note
				n++
			}
		}
		out[i] = m
	}
	return out, n
}

func joinHistory(parts ...[]provider.Message) []provider.Message {
	var out []provider.Message
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// summarise asks the model, without tools and without thinking, for a
// summary of older. The older history goes as a transcript in one user
// message rather than as the messages themselves: no dialect then needs
// tool definitions or reasoning round-trips for it.
func (s *Session) summarise(ctx context.Context, system, older []provider.Message) (string, provider.Usage, error) {
	m := s.current()
	maxTokens := summaryMaxTokens
	if m.MaxTokens > 0 {
		maxTokens = min(maxTokens, m.MaxTokens)
	}
	req := provider.Request{
		Model: m.Model,
		Messages: append(append([]provider.Message(nil), system...),
			provider.Message{Role: provider.RoleUser, Text: withInstructions(ctx, summaryInstruction) + "\n\n<conversation>\n" + transcript(older) + "</conversation>"}),
	}
	m.MaxTokens = maxTokens
	req.MaxTokens = s.outputRoom(m, req.Messages, nil) // the summary too asks no more than the window leaves
	if err := s.admitSpend(m, req); err != nil {
		return "", provider.Usage{}, err
	}
	t := &turn{}
	for ev := range m.Provider.Stream(ctx, req) {
		if !t.add(ev) {
			break
		}
	}
	if err := t.finish(); err != nil {
		return "", provider.Usage{}, fmt.Errorf("summary call: %w", err)
	}
	text := strings.TrimSpace(t.text.String())
	if text == "" {
		return "", t.usage, errors.New("summary call: the model returned no text")
	}
	return text, t.usage, nil
}

// transcript renders messages as plain text for the summary call.
func transcript(msgs []provider.Message) string {
	var b strings.Builder
	names := map[string]string{} // tool call id → tool name
	for _, m := range msgs {
		switch m.Role {
		case provider.RoleSystem:
			fmt.Fprintf(&b, "[earlier summary]\n%s\n\n", m.Text)
		case provider.RoleUser:
			fmt.Fprintf(&b, "[user]\n%s%s\n\n", m.Text, imagesNote(m))
		case provider.RoleAssistant:
			if m.Text != "" {
				fmt.Fprintf(&b, "[assistant]\n%s\n\n", m.Text)
			}
			for _, c := range m.ToolCalls {
				names[c.ID] = c.Name
				fmt.Fprintf(&b, "[assistant calls %s]\n%s\n\n", c.Name, c.Arguments)
			}
		case provider.RoleTool:
			status := "result"
			if m.IsError {
				status = "error"
			}
			fmt.Fprintf(&b, "[%s %s]\n%s\n\n", names[m.ToolCallID], status, m.Text)
		}
	}
	return b.String()
}

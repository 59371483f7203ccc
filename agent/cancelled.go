package agent

import (
	"strings"

	"github.com/agent-lsp/agent-lsp/provider"
)

// cancelledMarker ends what the model said before the user cancelled: the
// history says the answer was cut there, and a replay shows it.
const cancelledMarker = "[cancelled by the user]"

// closeCancelled records a prompt cancelled while the model answered (t
// holds what streamed, nil when nothing did) or before it was asked:
//   - its usage is estimated (the service bills what it read and wrote, but
//     a cancelled stream never carries its usage), counted in the totals
//     and the outcome, and reported as the round's;
//   - when the user's message is still the history's last, the answer so
//     far (text only: no call of it ran) follows it with the marker, so
//     the history is a closed exchange that a resumed session replays as
//     cancelled, not as a question left unanswered.
func (s *Session) closeCancelled(t *turn, round int, msgs []provider.Message, toolTokens int, o *Outcome, out *serialListener) {
	var text string
	if t != nil {
		text = t.text.String()
		u := provider.Usage{CompletionTokens: EstimateTokens(text) + EstimateTokens(t.reasoning.String())}
		if t.usage.PromptTokens > 0 {
			u = t.usage // the stream carried it before the cancel
		} else if msgs != nil {
			s.mu.Lock()
			u.PromptTokens = s.calib.scaled(toolTokens + estimateMessages(msgs))
			s.mu.Unlock()
		}
		o.Usage = o.Usage.Add(u)
		cost, priced, totals := s.account(u, len(msgs), toolTokens)
		out.emit(Event{Kind: EventRoundEnd, Round: round, ModelStop: provider.StopOther, Usage: u, Cost: cost,
			CostUnknown: !priced, Totals: totals, Spend: s.spendStatus()})
	}
	s.mu.Lock()
	last := len(s.history) - 1
	open := last >= 0 && s.history[last].Role == provider.RoleUser
	s.mu.Unlock()
	if !open {
		return // cancelled after a round of tool calls: the history is whole
	}
	msg := strings.TrimSpace(text)
	if msg != "" {
		msg += "\n\n"
	}
	s.append(provider.Message{Role: provider.RoleAssistant, Text: msg + cancelledMarker})
	s.commit()
}

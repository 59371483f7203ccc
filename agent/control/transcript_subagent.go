package control

import "github.com/agent-lsp/agent-lsp/agent"

// SubagentTranscript is the conversation of the subagent the session's
// task call callID started, in the entries of Transcript, with its own
// usage totals; ok is false when no task call of the session has that id.
func (s *Session) SubagentTranscript(callID string) (entries []Entry, totals agent.Totals, ok bool) {
	h, totals, ok := s.agent.SubagentHistory(callID)
	if !ok {
		return nil, agent.Totals{}, false
	}
	return TranscriptOf(h, nil), totals, true
}

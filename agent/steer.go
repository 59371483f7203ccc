package agent

import (
	"github.com/agent-lsp/agent-lsp/provider"
)

// StopSteered is the stop reason of a message the user sent to a running
// prompt that was delivered into it: it ran no turn of its own (the
// controller answers it; a Prompt never ends with it).
const StopSteered StopReason = "steered"

// EventSteer: a message the user sent to the running prompt entered the
// history, just before the model request of Round that carries it:
// SteerID names it (the controller's queue id), Text is what the model reads.
const EventSteer EventKind = "steer"

// SteerMessage is a message the user sent to a running prompt.
type SteerMessage struct{ ID, Text string }

// SteerSource hands the running prompt the messages sent to it since it
// last asked. The loop asks at each safe point: after every call of a
// round has its result, before the next model request.
type SteerSource interface {
	// TakeSteers returns the waiting messages, in the order they were
	// sent, and forgets them: each is delivered once.
	TakeSteers() []SteerMessage
}

// SetSteerSource sets where the running prompt's steer messages come from
// (nil: none).
func (s *Session) SetSteerSource(src SteerSource) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.steer = src
}

// deliverSteers appends the messages sent to the running prompt as user
// messages. It runs at a safe point: the round's tool results are all in
// the history, so a steer message never comes between a tool call and its
// result (in Messages it joins the tool results' user turn as a text block
// after them; in Chat Completions it is a user message after the tool
// messages). next is the round whose request carries them.
func (s *Session) deliverSteers(next int, out *serialListener) {
	s.mu.Lock()
	src := s.steer
	s.mu.Unlock()
	if src == nil {
		return
	}
	msgs := src.TakeSteers()
	if len(msgs) == 0 {
		return
	}
	for _, m := range msgs {
		s.append(provider.Message{Role: provider.RoleUser, Text: m.Text})
		out.emit(Event{Kind: EventSteer, Round: next, SteerID: m.ID, Text: m.Text})
	}
	s.commit()
}

package control

import (
	"context"
	"strings"

	"github.com/agent-lsp/agent-lsp/agent"
)

// Queue lists the session's queue: the steer messages waiting for the
// running prompt, then the queued prompts, in the order they will run.
func (s *Session) Queue() []QueueItem { return s.queue.items() }

// EditQueued replaces the prompt of a queued item (one not yet started or
// delivered) and returns the queue.
func (s *Session) EditQueued(id, prompt string) ([]QueueItem, error) {
	if strings.TrimSpace(prompt) == "" {
		return s.Queue(), invalidf("prompt is empty")
	}
	return s.queue.edit(id, prompt)
}

// RemoveQueued removes a queued item (one not yet started or delivered):
// its prompt is answered as cancelled with RemovedNotice. It returns the
// queue.
func (s *Session) RemoveQueued(id string) ([]QueueItem, error) {
	return s.queue.remove(id)
}

// DropQueue removes every queued prompt and steer message, each answered
// as removed, and returns how many there were. The running prompt goes on
// (Cancel cancels it).
func (s *Session) DropQueue() int { return s.queue.drop(DeliverQueue, DeliverSteer) }

// takeTurn waits for a queued or steered prompt's turn: at once when the
// session is idle, else in the queue. Holding it, the prompt runs with the
// returned context and input (the prompt as last edited) and calls release
// when it ends. A prompt that leaves the queue without running returns its
// answer in left: removed (by RemoveQueued, DropQueue, Cancel for a steer
// message, or its ctx), or steered (delivered into the running prompt).
func (s *Session) takeTurn(ctx context.Context, in PromptInput) (_ context.Context, _ PromptInput, release func(), left *Result) {
	e := s.queue.enter(in.Text, in.Context, in.Delivery)
	if e != nil {
		if !s.queue.wait(ctx, e) {
			if e.steered {
				return ctx, in, nil, &Result{Outcome: agent.Outcome{StopReason: agent.StopSteered}}
			}
			return ctx, in, nil, &Result{Outcome: agent.Outcome{StopReason: agent.StopCancelled, Notice: RemovedNotice}}
		}
		in.Text = e.item.Prompt
	}
	return context.WithValue(ctx, turnKey{}, &s.queue), in, func() { s.queue.release(ctx.Err() != nil) }, nil
}

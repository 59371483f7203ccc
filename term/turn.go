package term

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strings"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/agent/control"
)

// errInterrupted is the cause of a prompt Ctrl-C cancelled.
var errInterrupted = errors.New("interrupted (Ctrl-C)")

// steerPrefix starts a line typed while a turn runs that steers it; any
// other line is queued.
const steerPrefix = "/steer "

// TypeaheadHelp says what typing does while a turn runs (/help shows it).
const TypeaheadHelp = `while the agent works: Enter queues the line (it runs when the turn ends),
  /steer <message> sends it into the running turn (the model reads it after the current tool calls),
  /queue lists the queue, /queue edit <id> <text> and /queue remove <id> change it,
  Ctrl-C cancels the running prompt (the queue goes on), /exit cancels it all and quits`

// turn runs line and what the user types while it runs, until all of it
// has run: typed lines are queued or steer the running prompt (TypeaheadHelp),
// read through the approver so that a question's answer is never taken
// for one. It reports whether the user asked to quit.
func (t *terminal) turn(ctx context.Context, c *session, line string) (quit bool) {
	interrupts := make(chan os.Signal, 1)
	signal.Notify(interrupts, os.Interrupt)
	defer signal.Stop(interrupts)

	ended := make(chan struct{}, 1)
	running := 0
	start := func(line string, d control.Delivery) {
		running++
		go func() {
			defer func() { ended <- struct{}{} }()
			o, _, err := c.runAs(ctx, line, d)
			switch {
			case err != nil:
				t.p.OnEvent(agent.Event{Kind: agent.EventError, Err: err})
			case o.StopReason == agent.StopCancelled && o.Notice == control.RemovedNotice:
				t.p.dim(fmt.Sprintf("(removed from the queue: %s)", line))
			}
		}()
	}
	start(line, control.DeliverQueue)

	typed, stop := t.readTypeahead(ctx)
	defer stop()
	for running > 0 {
		select {
		case <-ended:
			running--
		case <-interrupts:
			c.sess.Cancel(errInterrupted)
		case l, ok := <-typed:
			if !ok {
				typed = nil // end of input: quit once the turn is over
				quit = true
				continue
			}
			switch l = strings.TrimSpace(l); {
			case l == "":
			case l == "/exit" || l == "/quit":
				c.sess.DropQueue()
				c.sess.Cancel(errInterrupted)
				quit = true
			case l == "/queue" || strings.HasPrefix(l, "/queue "):
				c.queueCommand(strings.TrimSpace(strings.TrimPrefix(l, "/queue")))
			case l+" " == steerPrefix:
				t.p.note("/steer needs a message: /steer <message>")
			case strings.HasPrefix(l, steerPrefix):
				start(strings.TrimSpace(strings.TrimPrefix(l, steerPrefix)), control.DeliverSteer)
			default:
				start(l, control.DeliverQueue)
			}
		}
	}
	return quit
}

// readTypeahead reads typed lines on its own goroutine until stop, which
// waits for it; a line read as the turn ended is kept for the prompt.
func (t *terminal) readTypeahead(ctx context.Context) (<-chan string, func()) {
	rctx, cancel := context.WithCancel(ctx)
	typed := make(chan string)
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer close(typed)
		for {
			line, err := t.approver.ReadTypeahead(rctx)
			if err != nil {
				return
			}
			select {
			case typed <- line:
			case <-rctx.Done():
				t.pending = append(t.pending, line) // read after the turn: the next prompt
				return
			}
		}
	}()
	return typed, func() { cancel(); <-done }
}

// queueCommand lists or changes the session's queue: "" lists it, "edit
// <id> <text>" and "remove <id>" change one item.
func (c *session) queueCommand(args string) {
	verb, rest, _ := strings.Cut(args, " ")
	var items []control.QueueItem
	var err error
	switch verb {
	case "":
		items = c.sess.Queue()
	case "remove":
		items, err = c.sess.RemoveQueued(strings.TrimSpace(rest))
	case "edit":
		id, text, _ := strings.Cut(strings.TrimSpace(rest), " ")
		items, err = c.sess.EditQueued(id, strings.TrimSpace(text))
	default:
		err = fmt.Errorf("/queue: unknown %q (/queue, /queue edit <id> <text>, /queue remove <id>)", verb)
	}
	if err != nil {
		c.p.note(err.Error())
		return
	}
	c.p.dim(queueText(items))
}

// queueText is the queue as the terminal shows it.
func queueText(items []control.QueueItem) string {
	if len(items) == 0 {
		return "queue: empty"
	}
	var b strings.Builder
	b.WriteString("queue:")
	for _, it := range items {
		fmt.Fprintf(&b, "\n  %s %-5s %s", it.ID, it.Delivery, it.Prompt)
	}
	return b.String()
}

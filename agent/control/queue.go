package control

import (
	"context"
	"slices"
	"strconv"
	"sync"

	"github.com/agent-lsp/agent-lsp/agent"
)

// Delivery says what becomes of a prompt sent while another one of the
// session runs.
type Delivery string

// The deliveries of PromptInput.Delivery.
const (
	// DeliverWait (the default): the prompt waits, unlisted, for the ones
	// before it, and Cancel cancels it while it waits.
	DeliverWait Delivery = ""
	// DeliverQueue: the prompt joins the session's queue (listed, editable,
	// removable until it starts) and runs when the prompts before it have
	// ended; Cancel of the running prompt leaves it queued (DropQueue
	// removes it).
	DeliverQueue Delivery = "queue"
	// DeliverSteer: the message is held for the running prompt and
	// delivered at its next safe point (every tool call of the round
	// answered, before the next model request) as a user message; if the
	// prompt ends before one, it runs as the next prompt, ahead of the
	// queue. Cancel of the running prompt removes it.
	DeliverSteer Delivery = "steer"
)

// ParseDelivery checks a delivery a front end received.
func ParseDelivery(d string) (Delivery, error) {
	switch Delivery(d) {
	case DeliverWait, DeliverQueue, DeliverSteer:
		return Delivery(d), nil
	}
	return "", invalidf("unknown delivery %q (queue or steer)", d)
}

// QueueItem is one listed message of a session's queue: a queued prompt or
// a steer message not yet delivered.
type QueueItem struct {
	ID       string
	Prompt   string
	Delivery Delivery
}

// RemovedNotice is the notice of a queued prompt removed before it started.
const RemovedNotice = "removed from the queue"

// UpdateQueue: the session's queue changed (an item was added, edited,
// removed, started or delivered); Update.Queue is the whole queue.
const UpdateQueue UpdateKind = "queue"

// promptQueue orders a session's prompts: one holds the session's turn
// (it runs), the others wait in entries, in the order they will run.
// Steer messages wait at the front, where the running prompt takes them
// or, when it ends first, they run next.
type promptQueue struct {
	notify func(Update) // the session's; called with changeMu held, so updates leave in order

	changeMu sync.Mutex // held across a change and its update: the last update is the current queue
	mu       sync.Mutex // guards the fields below
	busy     bool       // a prompt holds the turn
	entries  []*queued
	nextID   int
}

// queued is one prompt waiting for the turn, or a steer message waiting
// for a safe point.
type queued struct {
	item    QueueItem
	extra   string        // the context the front end added (PromptInput.Context), delivered after the prompt
	listed  bool          // DeliverWait prompts wait unlisted
	granted chan struct{} // closed when it holds the turn
	left    chan struct{} // closed when it left without running: removed, or delivered (steered)
	steered bool          // set before left is closed
}

// turnKey marks a context whose prompt holds its session's turn.
type turnKey struct{}

func holdsTurn(ctx context.Context, q *promptQueue) bool { return ctx.Value(turnKey{}) == q }

// change runs f on the queue under its lock and, when f says the listed
// queue changed, sends the whole queue.
func (q *promptQueue) change(f func() (listedChanged bool)) {
	q.changeMu.Lock()
	defer q.changeMu.Unlock()
	q.mu.Lock()
	changed := f()
	items := q.itemsLocked()
	q.mu.Unlock()
	if changed && q.notify != nil {
		q.notify(Update{Kind: UpdateQueue, Queue: items})
	}
}

func (q *promptQueue) items() []QueueItem {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.itemsLocked()
}

func (q *promptQueue) itemsLocked() []QueueItem {
	items := []QueueItem{}
	for _, e := range q.entries {
		if e.listed {
			items = append(items, e.item)
		}
	}
	return items
}

// enter adds a prompt: when the turn is free it takes it at once
// (entered is nil), otherwise it waits in the entry returned.
func (q *promptQueue) enter(text, extra string, d Delivery) (entered *queued) {
	q.change(func() bool {
		if !q.busy {
			q.busy = true
			return false
		}
		q.nextID++
		entered = &queued{item: QueueItem{ID: "q" + strconv.Itoa(q.nextID), Prompt: text, Delivery: d}, extra: extra,
			listed: d != DeliverWait, granted: make(chan struct{}), left: make(chan struct{})}
		at := len(q.entries)
		if d == DeliverSteer { // after the steer messages at the front, ahead of every prompt
			at = 0
			for at < len(q.entries) && q.entries[at].item.Delivery == DeliverSteer {
				at++
			}
		}
		q.entries = slices.Insert(q.entries, at, entered)
		return entered.listed
	})
	return entered
}

// wait waits until e holds the turn (true) or left the queue (false). When
// ctx ends first, e leaves as removed, unless the turn came meanwhile.
func (q *promptQueue) wait(ctx context.Context, e *queued) bool {
	select {
	case <-e.granted:
		return true
	case <-e.left:
		return false
	case <-ctx.Done():
	}
	granted := false
	q.change(func() bool {
		select {
		case <-e.granted:
			granted = true
			return false
		case <-e.left:
			return false
		default:
		}
		q.removeLocked(e, false)
		return e.listed
	})
	return granted
}

// removeLocked takes e out of the queue, as removed or as delivered.
func (q *promptQueue) removeLocked(e *queued, steered bool) {
	q.entries = slices.DeleteFunc(q.entries, func(o *queued) bool { return o == e })
	e.steered = steered
	close(e.left)
}

// release ends the holder's turn and gives it to the first entry: a steer
// message the running prompt did not take runs next, unless the prompt
// was cancelled ($/cancelRequest, a closed client): its steer messages are
// removed with it, as Cancel removes them.
func (q *promptQueue) release(cancelled bool) {
	q.change(func() bool {
		q.busy = false
		dropped := false
		for cancelled && len(q.entries) > 0 && q.entries[0].item.Delivery == DeliverSteer {
			q.removeLocked(q.entries[0], false)
			dropped = true
		}
		if len(q.entries) == 0 {
			return dropped
		}
		e := q.entries[0]
		q.entries = q.entries[1:]
		q.busy = true
		close(e.granted)
		return dropped || e.listed
	})
}

// TakeSteers implements agent.SteerSource: the steer messages waiting,
// delivered now (their prompts are answered as steered).
func (q *promptQueue) TakeSteers() []agent.SteerMessage {
	var msgs []agent.SteerMessage
	q.change(func() bool {
		for len(q.entries) > 0 && q.entries[0].item.Delivery == DeliverSteer {
			e := q.entries[0]
			msgs = append(msgs, agent.SteerMessage{ID: e.item.ID, Text: e.item.Prompt + e.extra})
			q.removeLocked(e, true)
		}
		return len(msgs) > 0
	})
	return msgs
}

// edit replaces a listed entry's prompt.
func (q *promptQueue) edit(id, text string) ([]QueueItem, error) {
	var err error
	q.change(func() bool {
		e := q.findLocked(id)
		if e == nil {
			err = notQueued(id)
			return false
		}
		e.item.Prompt = text
		return true
	})
	return q.items(), err
}

// remove takes a listed entry out; its prompt is answered as removed.
func (q *promptQueue) remove(id string) ([]QueueItem, error) {
	var err error
	q.change(func() bool {
		e := q.findLocked(id)
		if e == nil {
			err = notQueued(id)
			return false
		}
		q.removeLocked(e, false)
		return true
	})
	return q.items(), err
}

// drop removes the listed entries of the given deliveries and returns how
// many it removed.
func (q *promptQueue) drop(deliveries ...Delivery) int {
	n := 0
	q.change(func() bool {
		for _, e := range slices.Clone(q.entries) {
			if e.listed && slices.Contains(deliveries, e.item.Delivery) {
				q.removeLocked(e, false)
				n++
			}
		}
		return n > 0
	})
	return n
}

func (q *promptQueue) findLocked(id string) *queued {
	for _, e := range q.entries {
		if e.listed && e.item.ID == id {
			return e
		}
	}
	return nil
}

func notQueued(id string) error {
	return invalidf("%q is not in the queue (unknown, or already started or delivered)", id)
}

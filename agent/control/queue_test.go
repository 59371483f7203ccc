package control_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/agent/control"
	"github.com/agent-lsp/agent-lsp/internal/await"
	"github.com/agent-lsp/agent-lsp/permission"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
	"github.com/agent-lsp/agent-lsp/tools"
)

// holdTool is a tool call that runs until the test releases it: the slow
// tool call a steer message arrives during.
type holdTool struct {
	started chan struct{}
	release chan struct{}
}

func newHoldTool() *holdTool {
	return &holdTool{started: make(chan struct{}, 8), release: make(chan struct{})}
}

func (h *holdTool) Name() string        { return "hold" }
func (h *holdTool) Description() string { return "Waits until released." }
func (h *holdTool) Schema() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{}}`)
}
func (h *holdTool) Describe(context.Context, json.RawMessage, *tools.Env) (permission.Action, error) {
	return permission.Action{Tool: "hold", Summary: "hold", Scope: "hold", ReadOnly: true}, nil
}
func (h *holdTool) Run(ctx context.Context, _ json.RawMessage, _ *tools.Env) (tools.Result, error) {
	h.started <- struct{}{}
	select {
	case <-h.release:
		return tools.Result{Output: "released"}, nil
	case <-ctx.Done():
		return tools.Result{}, context.Cause(ctx)
	}
}

// queueSession is a session with the hold tool whose queue updates arrive
// on a channel.
func queueSession(t *testing.T, f *fixture, hold *holdTool) (*control.Session, <-chan []control.QueueItem) {
	t.Helper()
	b := f.binding(nil)
	if err := b.Tools.Add(hold); err != nil {
		t.Fatal(err)
	}
	queues := make(chan []control.QueueItem, 64)
	b.Notify = func(u control.Update) {
		f.updates.add(u)
		if u.Kind == control.UpdateQueue {
			queues <- u.Queue
		}
	}
	s, err := f.ctl.NewSession(b, "")
	if err != nil {
		t.Fatal(err)
	}
	return s, queues
}

type promptDone struct {
	res control.Result
	err error
}

func promptAsync(s *control.Session, in control.PromptInput, l agent.Listener) <-chan promptDone {
	done := make(chan promptDone, 1)
	go func() {
		res, err := s.Prompt(context.Background(), in, l)
		done <- promptDone{res, err}
	}()
	return done
}

// awaitQueue waits for a queue update whose prompts are want.
func awaitQueue(t *testing.T, queues <-chan []control.QueueItem, want ...string) []control.QueueItem {
	t.Helper()
	for {
		items := await.Event(t, queues, "queue update "+strings.Join(want, ","))
		var got []string
		for _, it := range items {
			got = append(got, it.Prompt)
		}
		if strings.Join(got, "\x00") == strings.Join(want, "\x00") {
			return items
		}
	}
}

var holdCall = providertest.Turn{ToolCalls: []providertest.Call{{ID: "call_hold", Name: "hold", Arguments: `{}`}}}

// userTexts are the texts of a request's user messages, in order.
func userTexts(t *testing.T, r providertest.Received) []string {
	t.Helper()
	var body struct {
		Messages []struct {
			Role    string `json:"role"`
			Content any    `json:"content"`
		} `json:"messages"`
	}
	if err := r.Decode(&body); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range body.Messages {
		if s, ok := m.Content.(string); ok && m.Role == "user" {
			out = append(out, s)
		}
	}
	return out
}

func TestQueuedPromptsRunInOrderEditedAndRemoved(t *testing.T) {
	f := newFixture(t, providertest.Script{holdCall, {Text: "first done"}, {Text: "second done"}}, fixtureOptions{})
	hold := newHoldTool()
	s, queues := queueSession(t, f, hold)

	first := promptAsync(s, control.PromptInput{Text: "first", Delivery: control.DeliverQueue}, discard)
	await.Event(t, hold.started, "the first prompt's tool call")
	second := promptAsync(s, control.PromptInput{Text: "second", Delivery: control.DeliverQueue}, discard)
	awaitQueue(t, queues, "second")
	third := promptAsync(s, control.PromptInput{Text: "third", Delivery: control.DeliverQueue}, discard)
	items := awaitQueue(t, queues, "second", "third")
	if items[0].ID == items[1].ID || items[1].Delivery != control.DeliverQueue {
		t.Fatalf("queue %+v", items)
	}

	if _, err := s.EditQueued(items[0].ID, "second, edited"); err != nil {
		t.Fatal(err)
	}
	awaitQueue(t, queues, "second, edited", "third")
	left, err := s.RemoveQueued(items[1].ID)
	if err != nil || len(left) != 1 || left[0].Prompt != "second, edited" {
		t.Fatalf("RemoveQueued: %+v, %v", left, err)
	}
	r := await.Event(t, third, "the removed prompt's answer")
	if r.err != nil || r.res.Outcome.StopReason != agent.StopCancelled || r.res.Outcome.Notice != control.RemovedNotice {
		t.Fatalf("removed prompt: %+v, %v", r.res.Outcome, r.err)
	}
	if _, err := s.RemoveQueued(items[1].ID); !errors.Is(err, control.ErrInvalid) {
		t.Fatalf("removing it again: %v, want ErrInvalid", err)
	}

	close(hold.release)
	if r := await.Event(t, first, "the first prompt"); r.res.Outcome.Text != "first done" {
		t.Fatalf("first: %+v %v", r.res.Outcome, r.err)
	}
	awaitQueue(t, queues) // the second started
	if r := await.Event(t, second, "the second prompt"); r.res.Outcome.Text != "second done" {
		t.Fatalf("second: %+v %v", r.res.Outcome, r.err)
	}
	reqs := f.model.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3", len(reqs))
	}
	if got := userTexts(t, reqs[2]); strings.Join(got, "|") != "first|second, edited" {
		t.Fatalf("the last request's user messages: %q", got)
	}
	if _, err := s.EditQueued("q1", "late"); !errors.Is(err, control.ErrInvalid) {
		t.Fatalf("editing a started prompt: %v, want ErrInvalid", err)
	}
}

func TestSteerReachesTheNextRequestAfterTheToolResults(t *testing.T) {
	f := newFixture(t, providertest.Script{holdCall, {Text: "steered answer"}}, fixtureOptions{})
	hold := newHoldTool()
	s, queues := queueSession(t, f, hold)

	ev := &events{}
	first := promptAsync(s, control.PromptInput{Text: "look around"}, ev)
	await.Event(t, hold.started, "the tool call")
	steer := promptAsync(s, control.PromptInput{Text: "also check the tests", Delivery: control.DeliverSteer}, discard)
	items := awaitQueue(t, queues, "also check the tests")
	close(hold.release)

	if r := await.Event(t, steer, "the steer's answer"); r.err != nil || r.res.Outcome.StopReason != agent.StopSteered {
		t.Fatalf("steer: %+v %v", r.res.Outcome, r.err)
	}
	if r := await.Event(t, first, "the prompt"); r.res.Outcome.Text != "steered answer" || r.res.Outcome.StopReason != agent.StopEndTurn {
		t.Fatalf("prompt: %+v %v", r.res.Outcome, r.err)
	}
	awaitQueue(t, queues) // delivered
	var body struct {
		Messages []struct {
			Role       string `json:"role"`
			Content    any    `json:"content"`
			ToolCallID string `json:"tool_call_id"`
		} `json:"messages"`
	}
	reqs := f.model.Requests()
	if err := reqs[1].Decode(&body); err != nil {
		t.Fatal(err)
	}
	var roles []string
	for _, m := range body.Messages {
		roles = append(roles, m.Role)
	}
	n := len(body.Messages)
	if strings.Join(roles, ",") != "system,user,assistant,tool,user" || body.Messages[n-1].Content != "also check the tests" {
		t.Fatalf("the second request: roles %v, last %v", roles, body.Messages[n-1].Content)
	}
	var steered []agent.Event
	for _, e := range ev.all {
		if e.Kind == agent.EventSteer {
			steered = append(steered, e)
		}
	}
	if len(steered) != 1 || steered[0].SteerID != items[0].ID || steered[0].Text != "also check the tests" || steered[0].Round != 2 {
		t.Fatalf("steer events %+v", steered)
	}
}

func TestSteerAfterTheLastSafePointRunsNext(t *testing.T) {
	arrived, answer := make(chan struct{}, 1), make(chan struct{})
	slow := providertest.Turn{Text: "no tools needed", Check: func(providertest.Received) error {
		arrived <- struct{}{}
		<-answer
		return nil
	}}
	f := newFixture(t, providertest.Script{slow, {Text: "about the steer"}}, fixtureOptions{})
	s, queues := queueSession(t, f, newHoldTool())

	first := promptAsync(s, control.PromptInput{Text: "quick question"}, discard)
	await.Event(t, arrived, "the model request")
	steer := promptAsync(s, control.PromptInput{Text: "and one more", Delivery: control.DeliverSteer}, discard)
	awaitQueue(t, queues, "and one more")
	close(answer)
	if r := await.Event(t, first, "the prompt"); r.res.Outcome.Text != "no tools needed" {
		t.Fatalf("prompt: %+v %v", r.res.Outcome, r.err)
	}
	r := await.Event(t, steer, "the steer run as a prompt")
	if r.err != nil || r.res.Outcome.StopReason != agent.StopEndTurn || r.res.Outcome.Text != "about the steer" {
		t.Fatalf("steer: %+v %v", r.res.Outcome, r.err)
	}
	if got := lastUserText(t, f.model.Requests()[1]); got != "and one more" {
		t.Fatalf("the second request's prompt %q", got)
	}
}

func TestCancelKeepsTheQueueUnlessDropped(t *testing.T) {
	for _, drop := range []bool{false, true} {
		t.Run(map[bool]string{false: "kept", true: "dropped"}[drop], func(t *testing.T) {
			script := providertest.Script{holdCall}
			if !drop {
				script = append(script, providertest.Turn{Text: "queued ran"})
			}
			f := newFixture(t, script, fixtureOptions{})
			hold := newHoldTool()
			s, queues := queueSession(t, f, hold)

			first := promptAsync(s, control.PromptInput{Text: "long job"}, discard)
			await.Event(t, hold.started, "the tool call")
			queued := promptAsync(s, control.PromptInput{Text: "next job", Delivery: control.DeliverQueue}, discard)
			awaitQueue(t, queues, "next job")
			steer := promptAsync(s, control.PromptInput{Text: "hurry", Delivery: control.DeliverSteer}, discard)
			awaitQueue(t, queues, "hurry", "next job")

			if drop {
				if n := s.DropQueue(); n != 2 {
					t.Fatalf("DropQueue removed %d, want 2", n)
				}
			}
			s.Cancel(errors.New("user cancelled"))
			if r := await.Event(t, first, "the cancelled prompt"); r.res.Outcome.StopReason != agent.StopCancelled {
				t.Fatalf("first: %+v", r.res.Outcome)
			}
			if r := await.Event(t, steer, "the steer"); r.res.Outcome.Notice != control.RemovedNotice {
				t.Fatalf("steer: %+v", r.res.Outcome)
			}
			r := await.Event(t, queued, "the queued prompt")
			if drop && (r.res.Outcome.StopReason != agent.StopCancelled || r.res.Outcome.Notice != control.RemovedNotice) {
				t.Fatalf("dropped: %+v", r.res.Outcome)
			}
			if !drop && r.res.Outcome.Text != "queued ran" {
				t.Fatalf("kept: %+v %v", r.res.Outcome, r.err)
			}
			if got := len(s.Queue()); got != 0 {
				t.Fatalf("queue left with %d items", got)
			}
		})
	}
}

func TestQueuedPromptRemovedByItsContext(t *testing.T) {
	f := newFixture(t, providertest.Script{holdCall, {Text: "done"}}, fixtureOptions{})
	hold := newHoldTool()
	s, queues := queueSession(t, f, hold)
	first := promptAsync(s, control.PromptInput{Text: "first"}, discard)
	await.Event(t, hold.started, "the tool call")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan promptDone, 1)
	go func() {
		res, err := s.Prompt(ctx, control.PromptInput{Text: "later", Delivery: control.DeliverQueue}, discard)
		done <- promptDone{res, err}
	}()
	awaitQueue(t, queues, "later")
	cancel()
	if r := await.Event(t, done, "the cancelled queued prompt"); r.res.Outcome.Notice != control.RemovedNotice {
		t.Fatalf("%+v", r.res.Outcome)
	}
	awaitQueue(t, queues)
	close(hold.release)
	await.Event(t, first, "the first prompt")
}

// A running prompt cancelled through its own context ($/cancelRequest, a
// client gone) takes its steer messages with it, as Cancel does; the
// queued prompts run next.
func TestCancelledContextDropsItsSteers(t *testing.T) {
	f := newFixture(t, providertest.Script{holdCall, {Text: "queued ran"}}, fixtureOptions{})
	hold := newHoldTool()
	s, queues := queueSession(t, f, hold)
	ctx, cancel := context.WithCancel(context.Background())
	first := make(chan promptDone, 1)
	go func() {
		res, err := s.Prompt(ctx, control.PromptInput{Text: "long job", Delivery: control.DeliverQueue}, discard)
		first <- promptDone{res, err}
	}()
	await.Event(t, hold.started, "the tool call")
	queued := promptAsync(s, control.PromptInput{Text: "next job", Delivery: control.DeliverQueue}, discard)
	awaitQueue(t, queues, "next job")
	steer := promptAsync(s, control.PromptInput{Text: "hurry", Delivery: control.DeliverSteer}, discard)
	awaitQueue(t, queues, "hurry", "next job")
	cancel()
	if r := await.Event(t, first, "the cancelled prompt"); r.res.Outcome.StopReason != agent.StopCancelled {
		t.Fatalf("first: %+v", r.res.Outcome)
	}
	if r := await.Event(t, steer, "the steer"); r.res.Outcome.Notice != control.RemovedNotice {
		t.Fatalf("steer: %+v", r.res.Outcome)
	}
	if r := await.Event(t, queued, "the queued prompt"); r.res.Outcome.Text != "queued ran" {
		t.Fatalf("queued: %+v %v", r.res.Outcome, r.err)
	}
}

package term

import (
	"context"
	"sync"
)

// askGate lets the REPL read what the user types while a turn runs
// (ReadTypeahead) without taking the answer to a question: while the
// approver asks, the typeahead reader stands aside, and the question
// reads the next line. Its zero value is ready.
type askGate struct {
	mu      sync.Mutex
	asking  int           // questions waiting for their answer
	reading int           // typeahead readers waiting for a line
	yield   chan struct{} // closed when a question starts: typeahead readers stand aside
	resume  chan struct{} // closed when the last question is answered
	aside   chan struct{} // closed when no typeahead reader waits any more
}

func (g *askGate) initLocked() {
	if g.yield == nil {
		g.yield = make(chan struct{})
	}
}

// begin marks a question as asked and returns once no typeahead reader
// can take its answer.
func (g *askGate) begin() {
	g.mu.Lock()
	g.initLocked()
	g.asking++
	if g.asking == 1 {
		close(g.yield)
		g.resume = make(chan struct{})
	}
	var aside chan struct{}
	if g.reading > 0 {
		if g.aside == nil {
			g.aside = make(chan struct{})
		}
		aside = g.aside
	}
	g.mu.Unlock()
	if aside != nil {
		<-aside
	}
}

// end marks the question as answered.
func (g *askGate) end() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.asking--
	if g.asking == 0 {
		g.yield = make(chan struct{})
		close(g.resume)
	}
}

// enter registers a typeahead reader; it returns the channel that says
// it must stand aside, or, while a question is asked, the one that says
// when it may try again (wait true).
func (g *askGate) enter() (ch <-chan struct{}, wait bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.initLocked()
	if g.asking > 0 {
		return g.resume, true
	}
	g.reading++
	return g.yield, false
}

// leave unregisters a typeahead reader.
func (g *askGate) leave() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.reading--
	if g.reading == 0 && g.aside != nil {
		close(g.aside)
		g.aside = nil
	}
}

// ReadTypeahead returns the next line of In that is no answer to a
// question: it waits while the approver asks, and stands aside when a
// question starts, so y/a/n go to the question.
func (t *Approver) ReadTypeahead(ctx context.Context) (string, error) {
	t.start.Do(t.startReading)
	for {
		ch, wait := t.gate.enter()
		if wait {
			select {
			case <-ch:
				continue
			case <-ctx.Done():
				return "", ctx.Err()
			}
		}
		select {
		case line, ok := <-t.lines:
			t.gate.leave()
			if !ok {
				return "", t.readErr
			}
			return line, nil
		case <-ch:
			t.gate.leave()
		case <-ctx.Done():
			t.gate.leave()
			return "", ctx.Err()
		}
	}
}

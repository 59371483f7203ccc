package provider

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"os"
	"sort"
	"sync/atomic"
)

// Replay is a Provider that answers from a recording (see Recorder): the
// Nth call gets the Nth recorded exchange, its raw lines decoded again by
// the dialect named in the recording, so a replay exercises the real
// decoders. Requests are not compared with the recorded ones.
type Replay struct {
	exchanges []*replayExchange
	next      atomic.Int64
}

// replayExchange is one recorded exchange, reduced to what answers it.
type replayExchange struct {
	dialect  Dialect
	status   int    // of the last response; 0 when none came
	errBody  string // the excerpt of a non-2xx answer
	raw      []byte // the lines after the last response, each ending in "\n"
	attempts int
	endErr   string // the recorded failure, "" for success
}

// NewReplay loads the recording at path. dialects must include every
// dialect the recording names.
func NewReplay(path string, dialects ...Dialect) (*Replay, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("opening replay: %w", err)
	}
	defer f.Close()
	byName := make(map[string]Dialect, len(dialects))
	for _, d := range dialects {
		byName[d.Name()] = d
	}
	bySeq := map[int64]*replayExchange{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 4*maxSSELine)
	for n := 1; sc.Scan(); n++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var rec record
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			return nil, fmt.Errorf("replay %s line %d: %w", path, n, err)
		}
		x := bySeq[rec.Seq]
		if rec.Kind == "request" {
			d, ok := byName[rec.Dialect]
			if !ok {
				return nil, fmt.Errorf("replay %s line %d: recording uses dialect %q, which was not given", path, n, rec.Dialect)
			}
			bySeq[rec.Seq] = &replayExchange{dialect: d}
			continue
		}
		if x == nil {
			return nil, fmt.Errorf("replay %s line %d: %q record of exchange %d before its request", path, n, rec.Kind, rec.Seq)
		}
		if err := x.add(rec); err != nil {
			return nil, fmt.Errorf("replay %s line %d: %w", path, n, err)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("reading replay %s: %w", path, err)
	}
	seqs := make([]int64, 0, len(bySeq))
	for s := range bySeq {
		seqs = append(seqs, s)
	}
	sort.Slice(seqs, func(i, j int) bool { return seqs[i] < seqs[j] })
	r := &Replay{}
	for _, s := range seqs {
		r.exchanges = append(r.exchanges, bySeq[s])
	}
	return r, nil
}

func (x *replayExchange) add(rec record) error {
	switch rec.Kind {
	case "response":
		x.status, x.errBody, x.raw = rec.Status, "", x.raw[:0]
		if len(rec.Body) > 0 {
			if err := json.Unmarshal(rec.Body, &x.errBody); err != nil {
				return fmt.Errorf("response body: %w", err)
			}
		}
	case "line":
		if rec.Line == nil {
			return errors.New("line record without a line")
		}
		x.raw = append(append(x.raw, *rec.Line...), '\n')
	case "retry": // a new attempt follows: forget the failed one's answer
		x.status, x.errBody, x.raw = 0, "", x.raw[:0]
	case "end":
		x.attempts, x.endErr = rec.Attempts, rec.Error
	}
	return nil // unknown kinds only document
}

// Len is the number of recorded exchanges.
func (r *Replay) Len() int { return len(r.exchanges) }

// Stream answers with the next recorded exchange.
func (r *Replay) Stream(ctx context.Context, _ Request) iter.Seq[Event] {
	return func(yield func(Event) bool) {
		n := r.next.Add(1) - 1
		if n >= int64(len(r.exchanges)) {
			yield(failure(fmt.Errorf("replay exhausted after %d exchanges", len(r.exchanges))))
			return
		}
		if last, ok := r.exchanges[n].answer(ctx, yield); ok {
			yield(last)
		}
	}
}

// answer yields the exchange's events and returns its terminal event, or
// false when the consumer stopped.
func (x *replayExchange) answer(ctx context.Context, yield func(Event) bool) (Event, bool) {
	cancelled := func() Event {
		return failure(fmt.Errorf("model API request cancelled: %w", ctx.Err()))
	}
	if ctx.Err() != nil {
		return cancelled(), true
	}
	switch {
	case x.status == 0 && x.endErr != "":
		return failure(errors.New(x.endErr)), true
	case x.status == 0:
		return failure(errors.New("replay: the recorded exchange has no response")), true
	case x.status < 200 || x.status > 299:
		return failure(&HTTPError{Status: x.status, Body: x.errBody, Attempts: max(x.attempts, 1)}), true
	}
	// After the lines, a recorded failure comes back as the same failure; a
	// clean recorded end (or none: a cut-off file) is the body's EOF.
	var body io.Reader = bytes.NewReader(x.raw)
	if x.endErr != "" {
		body = io.MultiReader(body, recordedEndReader{})
	}
	var done Event
	err := decodeSSE(body, x.dialect.NewDecoder(), nil, func(e Event) bool {
		if ctx.Err() != nil {
			return false
		}
		if e.Type == EventDone {
			done = e
			return true
		}
		return yield(e)
	})
	switch {
	case err == nil:
		return done, true
	case ctx.Err() != nil:
		return cancelled(), true
	case errors.Is(err, errStopped):
		return Event{}, false
	case errors.Is(err, errRecordedEnd):
		return failure(errors.New(x.endErr)), true
	case errors.Is(err, ErrMalformedFrame):
		return failure(fmt.Errorf("model API stream: %w", err)), true
	}
	return failure(err), true
}

var errRecordedEnd = errors.New("recorded stream failed here")

type recordedEndReader struct{}

func (recordedEndReader) Read([]byte) (int, error) { return 0, errRecordedEnd }

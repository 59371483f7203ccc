package completion

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agent-lsp/agent-lsp/provider/fim"
)

// fakeModel answers each request with the next script entry, streamed in
// the given deltas; a nil entry blocks until the request's ctx ends.
type fakeModel struct {
	mu      sync.Mutex
	script  [][]string
	reqs    []fim.Request
	started chan struct{} // one value per request, when it arrives
	ended   chan error    // the ctx cause of a blocked request
}

func newFake(script ...[]string) *fakeModel {
	return &fakeModel{script: script, started: make(chan struct{}, 16), ended: make(chan error, 16)}
}

func (f *fakeModel) Complete(ctx context.Context, req fim.Request, onText func(string) bool) (fim.Result, error) {
	f.mu.Lock()
	f.reqs = append(f.reqs, req)
	var deltas []string
	if len(f.script) > 0 {
		deltas, f.script = f.script[0], f.script[1:]
	}
	f.mu.Unlock()
	f.started <- struct{}{}
	if deltas == nil {
		<-ctx.Done()
		f.ended <- context.Cause(ctx)
		return fim.Result{}, ctx.Err()
	}
	var all strings.Builder
	for _, d := range deltas {
		all.WriteString(d)
		if !onText(d) {
			break
		}
	}
	return fim.Result{Text: all.String(), StopReason: "stop"}, nil
}

func (f *fakeModel) requests() []fim.Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]fim.Request(nil), f.reqs...)
}

func engine(t *testing.T, m fim.Client, mod func(*Options)) *Engine {
	t.Helper()
	o := DefaultOptions()
	o.Model = m
	o.Debounce = 0
	if mod != nil {
		mod(&o)
	}
	e, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func query(text string, trigger Trigger) Query {
	cursor := strings.Index(text, "|")
	return Query{Doc: "file:///a.go", Path: "a.go", Language: "go", Text: text[:cursor] + text[cursor+1:], Cursor: cursor, Trigger: trigger}
}

func TestCompleteBuildsTheRequestAndTrims(t *testing.T) {
	m := newFake([]string{`"hel`, `lo")`, "\nmore"})
	e := engine(t, m, nil)
	q := query("package main\n\nfunc main() {\n\tfmt.Println(|)\n}\n", Invoked)
	q.Others = []Buffer{{Path: "b.go", Language: "go", Text: "package main\n"}}
	got, err := e.Complete(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	want := []Suggestion{{Text: `"hello")`, Start: q.Cursor, End: q.Cursor + 1}}
	if len(got) != 1 || got[0] != want[0] {
		t.Fatalf("suggestions = %+v, want %+v", got, want)
	}
	req := m.requests()[0]
	if req.Prefix != "package main\n\nfunc main() {\n\tfmt.Println(" || len(req.Extra) != 1 || req.Extra[0] != (fim.File{Path: "b.go", Text: "package main\n"}) ||
		req.Suffix != ")\n}\n" || req.Language != "go" || req.Path != "a.go" || len(req.Stop) != 1 || req.Stop[0] != "\n" {
		t.Errorf("request = %+v", req)
	}
}

func TestNewQueryCancelsThePrevious(t *testing.T) {
	m := newFake(nil, []string{"x"})
	e := engine(t, m, nil)
	first := make(chan error, 1)
	go func() {
		_, err := e.Complete(context.Background(), query("a|", Invoked))
		first <- err
	}()
	<-m.started
	if _, err := e.Complete(context.Background(), query("ab|", Invoked)); err != nil {
		t.Fatal(err)
	}
	if cause := <-m.ended; !errors.Is(cause, ErrSuperseded) {
		t.Errorf("the model's request ended with %v", cause)
	}
	if err := <-first; !errors.Is(err, ErrSuperseded) {
		t.Errorf("the first query ended with %v", err)
	}
}

func TestDebounceCancelledBeforeTheModel(t *testing.T) {
	m := newFake([]string{"x"})
	e := engine(t, m, func(o *Options) { o.Debounce = time.Hour })
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := e.Complete(ctx, query("a|", Automatic))
		done <- err
	}()
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v", err)
	}
	if n := len(m.requests()); n != 0 {
		t.Errorf("%d model requests during the debounce", n)
	}
	// Invoked queries do not wait.
	if _, err := e.Complete(context.Background(), query("a|", Invoked)); err != nil || len(m.requests()) != 1 {
		t.Errorf("invoked: err %v, requests %d", err, len(m.requests()))
	}
}

func TestCacheServesTypingThrough(t *testing.T) {
	m := newFake([]string{"return a + b"})
	e := engine(t, m, nil)
	text := "func add(a, b int) int {\n\t|\n}\n"
	if _, err := e.Complete(context.Background(), query(text, Invoked)); err != nil {
		t.Fatal(err)
	}
	typed := strings.Replace(text, "|", "retu|", 1)
	got, err := e.Complete(context.Background(), query(typed, Automatic))
	if err != nil || len(got) != 1 || got[0].Text != "rn a + b" {
		t.Fatalf("after typing: %+v, %v", got, err)
	}
	if n := len(m.requests()); n != 1 {
		t.Errorf("%d model requests, want 1", n)
	}
	// Typing something else is a miss (the script has nothing: blocks).
	other := strings.Replace(text, "|", "x|", 1)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = e.Complete(ctx, query(other, Invoked))
	}()
	<-m.started
	<-m.started
	cancel()
	<-done
}

func TestSelectedItemIsContinued(t *testing.T) {
	m := newFake([]string{"(w, r)"})
	e := engine(t, m, nil)
	q := query("http.Han|\n", Invoked)
	q.Selected = &Selected{Text: "HandleFunc", Start: len("http."), End: q.Cursor}
	got, err := e.Complete(context.Background(), q)
	if err != nil || len(got) != 1 {
		t.Fatalf("%+v, %v", got, err)
	}
	if want := (Suggestion{Text: "HandleFunc(w, r)", Start: len("http."), End: q.Cursor}); got[0] != want {
		t.Errorf("suggestion = %+v, want %+v", got[0], want)
	}
	if p := m.requests()[0].Prefix; !strings.HasSuffix(p, "http.HandleFunc") {
		t.Errorf("prefix = %q", p)
	}
}

func TestStatusReportsErrors(t *testing.T) {
	var mu sync.Mutex
	var seen []Status
	e := engine(t, failing{}, func(o *Options) {
		o.OnStatus = func(s Status) { mu.Lock(); seen = append(seen, s); mu.Unlock() }
	})
	if _, err := e.Complete(context.Background(), query("a|", Invoked)); err == nil {
		t.Fatal("no error")
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) != 2 || seen[0].State != Completing || seen[1].State != Failed || seen[1].Message != "model down" {
		t.Errorf("statuses = %+v", seen)
	}
}

type failing struct{}

func (failing) Complete(context.Context, fim.Request, func(string) bool) (fim.Result, error) {
	return fim.Result{}, errors.New("model down")
}

// stopper records how many deltas it streamed before onText said stop.
type stopper struct{ streamed int }

func (s *stopper) Complete(_ context.Context, _ fim.Request, onText func(string) bool) (fim.Result, error) {
	for _, d := range []string{"a := 1", "\n\tb := 2", "\n"} {
		s.streamed++
		if !onText(d) {
			return fim.Result{StopReason: fim.StopCancelled}, nil
		}
	}
	return fim.Result{StopReason: fim.StopDone}, nil
}

func TestAutomaticAnswersAtTheFirstUsableLine(t *testing.T) {
	m := &stopper{}
	e := engine(t, m, nil)
	got, err := e.Complete(context.Background(), query("func f() {\n\t|\n}\n", Automatic))
	if err != nil || len(got) != 1 || got[0].Text != "a := 1" {
		t.Fatalf("%+v, %v", got, err)
	}
	if m.streamed != 2 {
		t.Errorf("%d deltas streamed; the stream should stop once the first line ended", m.streamed)
	}
	m = &stopper{}
	e = engine(t, m, nil)
	got, err = e.Complete(context.Background(), query("func f() {\n\t|\n}\n", Invoked))
	if err != nil || len(got) != 1 || got[0].Text != "a := 1\n\tb := 2" || m.streamed != 3 {
		t.Errorf("invoked: %+v, %v after %d deltas", got, err, m.streamed)
	}
}

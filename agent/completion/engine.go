package completion

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/agent-lsp/agent-lsp/provider/fim"
)

// Trigger is why the editor asks.
type Trigger int

const (
	// Automatic: the user typed; debounced, and answered at the first
	// usable line.
	Automatic Trigger = iota
	// Invoked: the user asked; answered at once and to the block's end.
	Invoked
)

// Selected is the completion item the editor's popup has selected: the
// suggestion continues the text as if it were accepted. Offsets are
// bytes of Query.Text; End is at or before the cursor.
type Selected struct {
	Text       string
	Start, End int
}

// Query is one request for a suggestion.
type Query struct {
	// Doc names the document (its URI): a query cancels the previous one
	// of the same document, and keys the cache.
	Doc            string
	Path, Language string // Path as shown to the model (workspace-relative)
	Text           string
	Cursor         int // byte offset in Text
	Trigger        Trigger
	Selected       *Selected
	Others         []Buffer // other open buffers, nearest first
}

// Suggestion replaces Text[Start:End] of the query with Text. Start is
// the cursor (or the selected item's start); End covers exactly the part
// of the cursor line's rest that the suggestion already holds.
type Suggestion struct {
	Text       string
	Start, End int
}

// State is what the engine is doing for a document.
type State string

const (
	Idle       State = "idle"
	Completing State = "completing"
	Failed     State = "error"
)

// Status is a change of state, for the editor's "completing…".
type Status struct {
	Doc     string
	State   State
	Message string // why, for Failed
}

// Options configure an Engine; DefaultOptions gives the defaults.
type Options struct {
	Model fim.Client
	// PrefixTokens and SuffixTokens bound the windows around the cursor;
	// ContextTokens what other buffers may add, out of the prefix budget
	// the document leaves unused.
	PrefixTokens, SuffixTokens, ContextTokens int
	MaxTokens                                 int // the model's answer
	MaxLines                                  int // a suggestion's lines at most
	CacheSize                                 int // suggestions remembered; 0: no cache
	// Debounce delays automatic queries: a keystroke within it cancels
	// the query before it costs a model call. Invoked ones never wait.
	Debounce time.Duration
	OnStatus func(Status) // nil: none; called on the query's goroutine
}

// DefaultOptions are sized for a local or fast hosted FIM model: a
// suggestion within a few hundred milliseconds matters more than a long
// one.
func DefaultOptions() Options {
	return Options{PrefixTokens: 1024, SuffixTokens: 256, ContextTokens: 256, MaxTokens: 128,
		MaxLines: 8, CacheSize: 64, Debounce: 75 * time.Millisecond}
}

// ErrSuperseded ends a query a newer one of the same document replaced.
var ErrSuperseded = errors.New("superseded by a newer completion request")

// Engine serves queries; it is safe for concurrent use and owns no
// goroutine: each query runs on its caller's.
type Engine struct {
	opts  Options
	cache *cache

	mu      sync.Mutex
	running map[string]*running // by Doc: the query running
}

// running is a query in flight; its pointer tells it from its successor.
type running struct {
	cancel context.CancelCauseFunc
}

func New(opts Options) (*Engine, error) {
	if opts.Model == nil {
		return nil, errors.New("completion: no model")
	}
	if opts.PrefixTokens <= 0 || opts.SuffixTokens < 0 || opts.MaxTokens <= 0 || opts.MaxLines <= 0 {
		return nil, fmt.Errorf("completion: prefix tokens, max tokens and max lines must be positive, suffix tokens not negative")
	}
	return &Engine{opts: opts, cache: newCache(opts.CacheSize), running: map[string]*running{}}, nil
}

// Complete returns the suggestions for q (none is not an error). A newer
// query of the same document ends it at once with ErrSuperseded; ctx's
// end ends it with ctx's cause. Either closes the model's stream.
func (e *Engine) Complete(ctx context.Context, q Query) ([]Suggestion, error) {
	if q.Cursor < 0 || q.Cursor > len(q.Text) {
		return nil, fmt.Errorf("completion: cursor %d outside the text (%d bytes)", q.Cursor, len(q.Text))
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	me := &running{cancel: cancel}
	e.supersede(q.Doc, me)
	defer e.done(q.Doc, me)

	text, cursor, sel := virtual(q)
	prefix, suffix := text[:cursor], text[cursor:]
	if insert, overlap, ok := e.cache.get(q.Doc, prefix, suffix); ok {
		return suggest(q, sel, insert, overlap), nil
	}
	if q.Trigger == Automatic && e.opts.Debounce > 0 {
		t := time.NewTimer(e.opts.Debounce)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return nil, context.Cause(ctx)
		}
	}

	req, sh := e.request(q, text, cursor)
	early := q.Trigger == Automatic
	e.status(q.Doc, Completing, "")
	var got strings.Builder
	kept, enough := "", false
	_, err := e.opts.Model.Complete(ctx, req, func(delta string) bool {
		got.WriteString(delta)
		kept, enough = sh.cut(got.String(), false, early, e.opts.MaxLines)
		return !enough
	})
	if err != nil && !enough {
		cause := context.Cause(ctx)
		switch {
		case ctx.Err() == nil:
			e.status(q.Doc, Failed, err.Error())
			return nil, fmt.Errorf("completion model: %w", err)
		case !errors.Is(cause, ErrSuperseded):
			e.status(q.Doc, Idle, "")
		} // superseded: no status, the newer query reports its own
		return nil, cause
	}
	if !enough {
		kept, _ = sh.cut(got.String(), true, early, e.opts.MaxLines)
	}
	insert, overlap := sh.finish(kept)
	e.cache.put(q.Doc, prefix, suffix, insert, overlap)
	e.status(q.Doc, Idle, "")
	return suggest(q, sel, insert, overlap), nil
}

// supersede cancels the document's running query and makes me its.
func (e *Engine) supersede(doc string, me *running) {
	e.mu.Lock()
	prev := e.running[doc]
	e.running[doc] = me
	e.mu.Unlock()
	if prev != nil {
		prev.cancel(ErrSuperseded)
	}
}

func (e *Engine) done(doc string, me *running) {
	e.mu.Lock()
	if e.running[doc] == me {
		delete(e.running, doc)
	}
	e.mu.Unlock()
}

func (e *Engine) status(doc string, st State, msg string) {
	if e.opts.OnStatus != nil {
		e.opts.OnStatus(Status{Doc: doc, State: st, Message: msg})
	}
}

// request builds the FIM request for the (virtual) text and the shape
// of the cursor's place in it.
func (e *Engine) request(q Query, text string, cursor int) (fim.Request, shape) {
	prefix := prefixWindow(text, cursor, e.opts.PrefixTokens)
	suffix := suffixWindow(text, cursor, e.opts.SuffixTokens)
	room := min(e.opts.ContextTokens, e.opts.PrefixTokens-len(prefix)/charsPerToken)
	sh := shapeOf(prefix, suffix)
	req := fim.Request{
		Prefix:    prefix,
		Suffix:    suffix,
		Path:      q.Path,
		Language:  q.Language,
		Extra:     extra(q.Language, q.Others, room),
		MaxTokens: e.opts.MaxTokens,
	}
	if sh.midLine {
		req.Stop = []string{"\n"} // the line is all that will be kept
	}
	return req, sh
}

// virtual is the text as if the selected completion item were accepted,
// with the cursor after it.
func virtual(q Query) (string, int, *Selected) {
	s := q.Selected
	if s == nil || s.Start < 0 || s.Start > s.End || s.End > q.Cursor {
		return q.Text, q.Cursor, nil
	}
	text := q.Text[:s.Start] + s.Text + q.Text[s.End:]
	return text, q.Cursor + len(s.Text) - (s.End - s.Start), s
}

// suggest maps a suggestion made at the virtual cursor back to q.Text.
func suggest(q Query, sel *Selected, insert string, overlap int) []Suggestion {
	if insert == "" {
		return nil
	}
	if sel == nil {
		return []Suggestion{{Text: insert, Start: q.Cursor, End: q.Cursor + overlap}}
	}
	return []Suggestion{{Text: sel.Text + q.Text[sel.End:q.Cursor] + insert, Start: sel.Start, End: q.Cursor + overlap}}
}

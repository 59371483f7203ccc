package providertest

import (
	"sync"
	"time"
)

// FIMTurn is a scripted fill-in-the-middle answer. Whether the text fits
// the prefix and suffix (overlap, repeated closing brackets) is the test's
// business: the fake streams what it is told.
type FIMTurn struct {
	// Text is streamed in deltas cut like chat text (WithDeltaSize applies).
	Text string
	// Chunks, when set, are the deltas exactly, instead of Text.
	Chunks []string
	// Stop is FIMStop (the default) or FIMLength, spelled the dialect's way
	// (finish_reason "length", llama.cpp's stop_type "limit", Ollama's
	// done_reason "length").
	Stop string
	// PromptTokens and CompletionTokens are the usage reported; 0: the
	// fake's own counts (PromptTokens of the body; one token a delta).
	PromptTokens, CompletionTokens int
	// Delay is waited before every delta: the answer streams slowly enough
	// for a test to act while it does. The wait ends when the client goes.
	Delay time.Duration
	// Stall stops the stream after StallAfter deltas (headers sent, no
	// finish) for this long; Forever: until the client goes away or the
	// server closes. Zero: no stall.
	Stall      time.Duration
	StallAfter int
}

// The stops of a FIMTurn.
const (
	FIMStop   = "stop"
	FIMLength = "length"
)

// FIM dialects, as Received.Dialect and FIMRequest.Dialect name them.
const (
	FIMDeepSeek = "fim-deepseek" // POST /beta/completions
	FIMLlamaCpp = "fim-llamacpp" // POST /infill
	FIMOllama   = "fim-ollama"   // POST /api/generate
	FIMMistral  = "fim-mistral"  // POST /v1/fim/completions
	FIMOpenAI   = "fim-openai"   // POST /v1/completions (and /completions)
)

// FIMFile is one entry of llama.cpp's input_extra.
type FIMFile struct {
	Filename string `json:"filename"`
	Text     string `json:"text"`
}

// FIMRequest is an accepted FIM request as the fake read it, whatever the
// dialect spelled its fields, and what became of its connection.
type FIMRequest struct {
	Dialect string // FIMDeepSeek, …
	Model   string // "" when absent (llama.cpp)
	// Prefix is the text before the cursor as sent (prompt, input_prefix),
	// any header the client put before the caller's prefix included.
	Prefix string
	Suffix string
	// SuffixIgnored: the request sent a suffix the server drops (llama.cpp's
	// /v1/completions, WithLlamaCpp); Suffix is then "".
	SuffixIgnored bool
	Extra         []FIMFile
	// MaxTokens is max_tokens, n_predict or options.num_predict (0: absent).
	MaxTokens   int
	Stop        []string
	Temperature *float64
	// Turn is the index of the turn that answers it.
	Turn int
	// Arrived is when the server took the request in.
	Arrived time.Time

	mu       sync.Mutex
	closedAt time.Time
	closed   chan struct{} // closed when the client went away mid-answer
	ended    chan struct{} // closed when the server is done with the request
}

func newFIMRequest(dialect string) *FIMRequest {
	return &FIMRequest{
		Dialect: dialect, Arrived: time.Now(),
		closed: make(chan struct{}), ended: make(chan struct{}),
	}
}

// Closed is closed when the server saw the client close the connection
// before the answer's finish was written (a cancelled or abandoned
// completion: the stream closed mid-answer, or while it stalled).
func (r *FIMRequest) Closed() <-chan struct{} { return r.closed }

// ClosedAt is when the server saw the client go (zero while it has not):
// ClosedAt minus the next request's Arrived is how long a cancelled
// request outlived its successor.
func (r *FIMRequest) ClosedAt() time.Time {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.closedAt
}

// Ended is closed when the server is done with the request: its answer was
// written in full, or the client went away (then Closed is closed first).
func (r *FIMRequest) Ended() <-chan struct{} { return r.ended }

// markClosed records the client's disconnect, once.
func (r *FIMRequest) markClosed() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closedAt.IsZero() {
		r.closedAt = time.Now()
		close(r.closed)
	}
}

// FIMBaseURL is the base URL of every FIM dialect: the server answers POST
// /beta/completions (DeepSeek), /infill (llama.cpp), /api/generate (Ollama),
// /v1/fim/completions (Mistral) and /v1/completions or /completions (OpenAI).
func (s *Server) FIMBaseURL() string { return s.http.URL }

// FIMRequests returns the accepted FIM requests so far, in arrival order.
func (s *Server) FIMRequests() []*FIMRequest {
	var out []*FIMRequest
	for _, r := range s.Requests() {
		if r.FIM != nil {
			out = append(out, r.FIM)
		}
	}
	return out
}

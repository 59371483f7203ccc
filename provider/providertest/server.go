package providertest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// maxBody bounds a request body; the real services refuse far smaller ones.
const maxBody = 64 << 20

// Received is one request the server got, accepted or not.
type Received struct {
	Dialect string // "openai" | "anthropic" | a FIM one (FIMDeepSeek, …) | "" (unknown path)
	Path    string
	Header  http.Header
	Body    []byte // raw JSON body
	// Rejected is why the request was refused ("" when it was answered by a
	// turn): the 400/401 reason, "script exhausted", or the 404/405 reason.
	Rejected string
	// Status is the refusal's HTTP status (0 when answered by a turn; a
	// scripted Fault.Status does not count as a refusal).
	Status int
	// Turn is the index of the turn that answered it, -1 when refused.
	Turn int
	// PromptTokens is the fake's count of the request (PromptTokens of the
	// body, see WithContextLimit); 0 when refused before validation.
	PromptTokens int
	// CachedTokens is the part of PromptTokens the simulated prompt cache
	// held (WithPrefixCache); 0 without it or when refused.
	CachedTokens int
	// FIM is the decoded fill-in-the-middle request, when Dialect is a FIM
	// one ("fim-deepseek", …) and the request was accepted (fim_server.go).
	FIM *FIMRequest
}

// Decode unmarshals the request body into v.
func (r Received) Decode(v any) error {
	if err := json.Unmarshal(r.Body, v); err != nil {
		return fmt.Errorf("providertest: decoding %s request body: %w", r.Dialect, err)
	}
	return nil
}

// Server is the fake model server. Create it with NewServer.
type Server struct {
	t             testing.TB
	http          *httptest.Server
	seed          int64
	seedSet       bool
	apiKey        string
	separateUsage bool
	deltaSize     int
	keepAlive     bool
	kind          string // server kind whose thinking switches are read (think_kind.go)
	// messagesLayout orders the Messages stream events (layout_llamacpp.go).
	messagesLayout MessagesLayout
	window         *Window       // WithWindow: context-window discovery answers
	limit          *contextLimit // WithContextLimit (context_limit.go); under mu
	cache          *PrefixCache  // WithPrefixCache (prefix_cache.go)
	llama          *llamaCpp     // WithLlamaCpp (llamacpp.go); nil: not llama.cpp
	closing        chan struct{}

	mu     sync.Mutex // serialises admission: validation, turn order, memory
	script Script
	next   int
	mem    *memory

	recMu    sync.Mutex // guards received apart from mu, so Check may call Requests
	received []Received
	arrived  chan struct{} // closed (and replaced) when a request is recorded; under recMu
}

// Option configures a Server.
type Option func(*Server)

// WithSeed fixes the seed of fragment boundaries, pings and generated ids.
func WithSeed(seed int64) Option {
	return func(s *Server) { s.seed, s.seedSet = seed, true }
}

// WithAPIKey requires a credential: Chat Completions `Authorization: Bearer
// key` (anything else: 401 authentication_error); Messages `x-api-key: key`
// (missing or wrong: 401 authentication_error, as the real API answers).
// Independently of this option, a Messages request without anthropic-version
// is 400, and one that sends Authorization instead of x-api-key is 401.
func WithAPIKey(key string) Option { return func(s *Server) { s.apiKey = key } }

// WithSeparateUsageChunk makes Chat Completions streams carry usage the way
// OpenAI does: "usage":null on every chunk, then a "choices":[] chunk with the
// usage after the finish chunk, instead of DeepSeek's usage on the finish chunk.
func WithSeparateUsageChunk() Option { return func(s *Server) { s.separateUsage = true } }

// WithDeltaSize splits text, reasoning and tool arguments into deltas of
// exactly n runes (the last may be shorter) instead of the default 1–8 bytes
// extended to a rune boundary.
func WithDeltaSize(n int) Option { return func(s *Server) { s.deltaSize = n } }

// WithKeepAliveComment makes every stream open with an SSE comment line
// (": keep-alive"), as DeepSeek sends while a request waits in its queue. The
// comment does not count as a frame.
func WithKeepAliveComment() Option { return func(s *Server) { s.keepAlive = true } }

// NewServer starts a fake model server on 127.0.0.1 answering with script.
// It is closed by t.Cleanup; a stalled stream ends when it closes.
func NewServer(t testing.TB, script Script, opts ...Option) *Server {
	t.Helper()
	s := &Server{
		t:       t,
		seed:    rand.Int64(),
		script:  append(Script(nil), script...),
		mem:     newMemory(),
		closing: make(chan struct{}),
	}
	for _, o := range opts {
		o(s)
	}
	if !s.seedSet {
		t.Logf("providertest: seed %d (reproduce with providertest.WithSeed(%d))", s.seed, s.seed)
	}
	s.http = httptest.NewServer(s)
	t.Cleanup(func() {
		close(s.closing)
		s.http.CloseClientConnections()
		s.http.Close()
	})
	return s
}

// OpenAIBaseURL is the Chat Completions base URL: it serves POST
// /chat/completions (and /v1/chat/completions).
func (s *Server) OpenAIBaseURL() string { return s.http.URL }

// AnthropicBaseURL is the Messages base URL (URL + "/anthropic"): it serves
// POST /anthropic/v1/messages (and /v1/messages).
func (s *Server) AnthropicBaseURL() string { return s.http.URL + "/anthropic" }

// Client returns an HTTP client for the server.
func (s *Server) Client() *http.Client { return s.http.Client() }

// Requests returns every request received so far, accepted or not, in the
// order the server took them in (the order turns were handed out).
func (s *Server) Requests() []Received {
	s.recMu.Lock()
	defer s.recMu.Unlock()
	return append([]Received(nil), s.received...)
}

// WaitRequests waits until at least n requests have been received
// (accepted or not), or ctx ends.
func (s *Server) WaitRequests(ctx context.Context, n int) error {
	for {
		s.recMu.Lock()
		if len(s.received) >= n {
			s.recMu.Unlock()
			return nil
		}
		if s.arrived == nil {
			s.arrived = make(chan struct{})
		}
		arrived := s.arrived
		s.recMu.Unlock()
		select {
		case <-arrived:
		case <-ctx.Done():
			return fmt.Errorf("waiting for request %d: %w", n, context.Cause(ctx))
		}
	}
}

// Append extends the script while the server runs.
func (s *Server) Append(turns ...Turn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.script = append(s.script, turns...)
}

// Consumed returns how many turns have answered a request.
func (s *Server) Consumed() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.next
}

func dialectOf(path string) string {
	switch path {
	case "/chat/completions", "/v1/chat/completions":
		return dialectOpenAI
	case "/anthropic/v1/messages", "/v1/messages":
		return dialectAnthropic
	}
	return ""
}

// ServeHTTP admits a request under the lock (validation, turn assignment) and
// streams the answer outside it, so a slow reader never blocks other requests.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.llama.header(w)
	if s.window.serveWindow(w, r) {
		return
	}
	if s.serveFIM(w, r) {
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody))
	rec := Received{
		Dialect: dialectOf(r.URL.Path),
		Path:    r.URL.Path,
		Header:  r.Header.Clone(),
		Body:    body,
		Turn:    -1,
	}
	var early *rejection
	switch {
	case err != nil:
		early = badRequest("reading the request body: %v", err)
	case rec.Dialect == "":
		early = &rejection{status: http.StatusNotFound, message: "no such endpoint: " + rec.Path}
	case r.Method != http.MethodPost:
		early = &rejection{status: http.StatusMethodNotAllowed, message: r.Method + " is not allowed; use POST"}
	}
	ans, rej := s.admit(&rec, early)
	if rej != nil {
		if rej.status != http.StatusInternalServerError {
			s.t.Logf("providertest: %s %s refused with %d: %s", r.Method, r.URL.Path, rej.status, rej.message)
		}
		body := rej.body
		if body == nil {
			body = errorBody(rec.Dialect, rej.status, rej.message)
		}
		writeJSON(w, rej.status, body, "")
		return
	}
	s.respond(w, r, ans)
}

// admit validates the request and, when it is acceptable, consumes a turn
// and builds its answer. It records the request before it lets go of the
// lock, so Requests lists requests in the order their turns were decided.
func (s *Server) admit(rec *Received, early *rejection) (*answer, *rejection) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ans, rej := s.decide(rec, early)
	if rej != nil {
		rec.Rejected, rec.Status, rec.Turn = rej.message, rej.status, -1
	}
	s.record(*rec)
	return ans, rej
}

// record appends rec to the received requests and wakes WaitRequests.
func (s *Server) record(rec Received) {
	s.recMu.Lock()
	defer s.recMu.Unlock()
	s.received = append(s.received, rec)
	if s.arrived != nil {
		close(s.arrived)
		s.arrived = nil
	}
}

func (s *Server) decide(rec *Received, early *rejection) (*answer, *rejection) {
	if early != nil {
		return nil, early
	}
	var rej *rejection
	if rec.Dialect == dialectOpenAI {
		if rej = checkChatAuth(rec.Header, s.apiKey); rej == nil {
			rej = s.validateChatKind(rec.Body)
		}
	} else {
		if rej = checkMessagesHeaders(rec.Header, s.apiKey); rej == nil {
			rej = s.validateMessagesKind(rec.Body)
		}
	}
	if rej == nil {
		rej = s.checkLimit(rec)
	}
	if rej == nil {
		rej = s.llama.checkOutput(rec.Body)
	}
	if rej != nil {
		return nil, rej
	}
	if s.next >= len(s.script) {
		s.t.Errorf("providertest: request %s %s arrived past the end of the script (%d turns)", rec.Dialect, rec.Path, len(s.script))
		return nil, &rejection{status: http.StatusInternalServerError, message: "script exhausted"}
	}
	turn := s.script[s.next]
	if turn.FIM != nil {
		s.t.Errorf("providertest: chat request %s %s met FIM turn %d", rec.Dialect, rec.Path, s.next)
		return nil, &rejection{status: http.StatusInternalServerError, message: "script mismatch: a FIM turn"}
	}
	if turn.Check != nil {
		candidate := *rec
		candidate.Turn = s.next
		if err := turn.Check(candidate); err != nil {
			return nil, badRequest("%s", err.Error())
		}
	}
	rec.Turn = s.next
	s.next++
	return s.prepare(rec, turn), nil
}

// prepare builds the answer of a turn and remembers what it produces.
func (s *Server) prepare(rec *Received, turn Turn) *answer {
	ans := &answer{dialect: rec.Dialect, fault: turn.Fault}
	unscripted := turn.Usage.PromptTokens == 0 // the fake's own counts go into usage
	if s.limit != nil && unscripted {
		turn.Usage.PromptTokens = rec.PromptTokens // WithContextLimit: usage agrees with the window's count
	}
	if turn.Fault != nil && turn.Fault.Status != 0 {
		return ans
	}
	if s.cache != nil { // a request answered with an error status was never read into a cache
		rec.CachedTokens = s.cache.take(rec.Body, rec.PromptTokens)
		if unscripted {
			turn.Usage.PromptTokens, turn.Usage.CachedTokens = rec.PromptTokens, rec.CachedTokens
		}
	}
	var model string
	if req, ok := decodeObject(rec.Body); ok {
		model, _ = req.str("model")
	}
	frag := newFragmenter(s.seed, rec.Turn, s.deltaSize)
	if turn.Generated != nil && turn.Text == "" {
		s.t.Errorf("providertest: turn %d has generated text but no Text to open it", rec.Turn)
	}
	turn.ToolCalls = append([]Call(nil), turn.ToolCalls...)
	for i := range turn.ToolCalls {
		if turn.ToolCalls[i].ID != "" {
			continue
		}
		if rec.Dialect == dialectOpenAI {
			turn.ToolCalls[i].ID = frag.chatCallID(i)
		} else {
			turn.ToolCalls[i].ID = frag.toolUseID()
		}
	}
	produced := &producedTurn{text: turn.Text, reasoning: turn.Reasoning}
	for _, c := range turn.ToolCalls {
		produced.callIDs = append(produced.callIDs, c.ID)
	}
	if rec.Dialect == dialectOpenAI {
		c := &chatStream{
			frag: frag, id: frag.completionID(), created: time.Now().Unix(),
			model: model, separateUsage: s.separateUsage,
		}
		ans.frames, ans.finishFrom = chatFrames(turn, c)
		if turn.Generated != nil {
			ans.generated = newGenerated(turn.Generated, c.textEnd, func(text string) []byte {
				return c.textFrame(text, turn.Reasoning != "")
			})
		}
	} else {
		m := &messagesStream{frag: frag, id: frag.messageID(), model: model}
		if turn.Reasoning != "" && s.llama == nil { // llama.cpp signs nothing
			m.signature = frag.signature()
			produced.signature = m.signature
		}
		ans.frames, ans.finishFrom = s.messagesLayout.frames(turn, m)
		if turn.Generated != nil {
			if s.messagesLayout == LayoutLlamaCpp {
				s.t.Errorf("providertest: generated text in the llama.cpp layout is not supported")
			}
			ans.generated = newGenerated(turn.Generated, m.textEnd, m.textFrame)
		}
	}
	s.mem.remember(produced)
	return ans
}

func writeJSON(w http.ResponseWriter, status int, body []byte, retryAfter string) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	if retryAfter != "" {
		h.Set("Retry-After", retryAfter)
	}
	w.WriteHeader(status)
	_, _ = w.Write(body) // the client may be gone; nothing to do about it
}

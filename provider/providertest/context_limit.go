package providertest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
)

// LimitKind is a model server whose "request too long" answer WithContextLimit
// gives: the body, and how the server counts a request against its window.
type LimitKind string

// The server kinds of WithContextLimit.
const (
	// LimitLlamaCpp refuses when the prompt reaches n_ctx (llama.cpp's check
	// is n_prompt_tokens >= n_ctx) with exceed_context_size_error.
	LimitLlamaCpp LimitKind = "llama.cpp"
	// LimitOpenAI refuses a prompt over the window with
	// context_length_exceeded ("your messages resulted in N tokens").
	LimitOpenAI LimitKind = "openai"
	// LimitVLLM counts the prompt plus max_tokens (max_completion_tokens) and
	// refuses over the window ("you requested N tokens (P in the messages, C
	// in the completion)").
	LimitVLLM LimitKind = "vllm"
	// LimitAnthropic refuses a prompt over the window ("prompt is too long:
	// N tokens > L maximum").
	LimitAnthropic LimitKind = "anthropic"
)

// contextLimit is the window WithContextLimit sets; refused counts refusals
// (under Server.mu).
type contextLimit struct {
	tokens  int
	kind    LimitKind
	refused int
}

// WithContextLimit gives the server a context window of tokens, refused the
// way kind refuses (whichever dialect the request speaks): a request whose
// count is over the window is answered 400 with that server's real body, is
// recorded (Rejected, Status 400, PromptTokens), and consumes no turn.
//
// The count is the fake's own and deterministic: PromptTokens(body), the
// bytes of the compacted JSON of the request's "system", "messages" and
// "tools" values divided by 4, rounded up. For a model request it is
// recorded in Received.PromptTokens with or without this option. With it, a
// turn whose Usage.PromptTokens is 0 reports that count as its prompt
// tokens, so a client calibrating its estimate from usage sees the same
// numbers the window is enforced with.
//
// The check runs after the dialect's validation and before the script is
// read: an invalid request is refused for its fault, an overlong one even
// when the script is exhausted.
func WithContextLimit(tokens int, kind LimitKind) Option {
	return func(s *Server) { s.limit = &contextLimit{tokens: tokens, kind: kind} }
}

// PromptTokens is the fake's token count of a request body (see
// WithContextLimit); 0 for a body that is not a JSON object.
func PromptTokens(body []byte) int {
	req, ok := decodeObject(body)
	if !ok {
		return 0
	}
	n := 0
	for _, k := range []string{"system", "messages", "tools"} {
		raw := req[k]
		if len(raw) == 0 {
			continue
		}
		var c bytes.Buffer
		if err := json.Compact(&c, raw); err != nil {
			n += len(raw)
			continue
		}
		n += c.Len()
	}
	return (n + 3) / 4
}

// RequestTokens is PromptTokens of every recorded request, in the order of
// Requests (0 for a request refused before its body was validated).
func (s *Server) RequestTokens() []int {
	s.recMu.Lock()
	defer s.recMu.Unlock()
	out := make([]int, len(s.received))
	for i, r := range s.received {
		out[i] = r.PromptTokens
	}
	return out
}

// Overflows is how many requests WithContextLimit refused as too long.
func (s *Server) Overflows() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.limit == nil {
		return 0
	}
	return s.limit.refused
}

// checkLimit counts the validated request into rec and refuses it when it
// is over the window. Called under s.mu.
func (s *Server) checkLimit(rec *Received) *rejection {
	rec.PromptTokens = PromptTokens(rec.Body)
	l := s.limit
	if l == nil {
		return nil
	}
	p := rec.PromptTokens
	var body any
	switch l.kind {
	case LimitLlamaCpp:
		if p < l.tokens {
			return nil
		}
		body = map[string]any{"error": map[string]any{
			"code": 400, "message": "the request exceeds the available context size, try increasing it",
			"type": "exceed_context_size_error", "n_prompt_tokens": p, "n_ctx": l.tokens,
		}}
	case LimitVLLM:
		c := maxTokensOf(rec.Body)
		if p+c <= l.tokens {
			return nil
		}
		body = map[string]any{
			"object": "error",
			"message": fmt.Sprintf("This model's maximum context length is %d tokens. However, you requested %d tokens (%d in the messages, %d in the completion). Please reduce the length of the messages or completion.",
				l.tokens, p+c, p, c),
			"type": "BadRequestError", "param": nil, "code": 400,
		}
	case LimitAnthropic:
		if p <= l.tokens {
			return nil
		}
		body = map[string]any{"type": "error", "error": map[string]any{
			"type": "invalid_request_error", "message": fmt.Sprintf("prompt is too long: %d tokens > %d maximum", p, l.tokens),
		}}
	default: // LimitOpenAI
		if p <= l.tokens {
			return nil
		}
		body = map[string]any{"error": map[string]any{
			"message": fmt.Sprintf("This model's maximum context length is %d tokens. However, your messages resulted in %d tokens. Please reduce the length of the messages.", l.tokens, p),
			"type":    "invalid_request_error", "param": "messages", "code": "context_length_exceeded",
		}}
	}
	l.refused++
	return &rejection{
		status:  http.StatusBadRequest,
		message: fmt.Sprintf("context window exceeded: %d tokens, window %d (%s)", p, l.tokens, l.kind),
		body:    marshal(body),
	}
}

// maxTokensOf is the completion budget a vLLM-style server adds to the
// prompt: max_tokens, else max_completion_tokens, else 0.
func maxTokensOf(body []byte) int {
	req, ok := decodeObject(body)
	if !ok {
		return 0
	}
	for _, k := range []string{"max_tokens", "max_completion_tokens"} {
		if n, ok := req.positiveInt(k); ok {
			return int(n)
		}
	}
	return 0
}

package provider

import (
	"errors"
	"regexp"
	"strconv"
	"strings"
)

// ContextOverflow is a request the server refused as longer than its
// context window. Limit and Requested are the token counts the answer
// gave (0 when it gave none): the caller learns the real window from them
// and shrinks the history to fit.
type ContextOverflow struct {
	Limit     int // the server's context window
	Requested int // what the refused request came to, by the server's count
}

// overflowPatterns read the answers of the real servers, each with the
// submatches of its counts: llama.cpp's exceed_context_size_error (JSON
// fields), the "maximum context length is N tokens ... requested/resulted
// in M tokens" of OpenAI, DeepSeek and vLLM, and Anthropic's "prompt is too
// long: M tokens > N maximum".
var overflowPatterns = []struct {
	re               *regexp.Regexp
	limit, requested int // submatch indexes, 0: absent
}{
	{regexp.MustCompile(`maximum context length is (\d+) tokens(?:.*?(?:requested|resulted in) (\d+) tokens)?`), 1, 2},
	{regexp.MustCompile(`prompt is too long: (\d+) tokens > (\d+) maximum`), 2, 1},
	{regexp.MustCompile(`prompt is too long`), 0, 0},
	{regexp.MustCompile(`context_length_exceeded`), 0, 0},
	{regexp.MustCompile(`exceed_context_size_error|exceeds the available context size`), 0, 0},
	{regexp.MustCompile(`(?i)input (?:is )?too long|too many tokens|context window exceeded`), 0, 0},
}

var (
	llamaPrompt = regexp.MustCompile(`"n_prompt_tokens"\s*:\s*(\d+)`)
	llamaCtx    = regexp.MustCompile(`"n_ctx"\s*:\s*(\d+)`)
)

// ContextOverflowOf says whether err is a "request too long" answer of a
// model server, and the counts it gave.
func ContextOverflowOf(err error) (ContextOverflow, bool) {
	var h *HTTPError
	if !errors.As(err, &h) || (h.Status != 400 && h.Status != 413 && h.Status != 422) {
		return ContextOverflow{}, false
	}
	body := h.Body
	for _, p := range overflowPatterns {
		m := p.re.FindStringSubmatch(body)
		if m == nil {
			continue
		}
		var o ContextOverflow
		if p.limit > 0 {
			o.Limit = atoiOr0(m[p.limit])
		}
		if p.requested > 0 && p.requested < len(m) {
			o.Requested = atoiOr0(m[p.requested])
		}
		if o.Limit == 0 {
			if c := llamaCtx.FindStringSubmatch(body); c != nil {
				o.Limit = atoiOr0(c[1])
			}
		}
		if o.Requested == 0 {
			if c := llamaPrompt.FindStringSubmatch(body); c != nil {
				o.Requested = atoiOr0(c[1])
			}
		}
		return o, true
	}
	return ContextOverflow{}, false
}

func atoiOr0(s string) int {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n < 0 {
		return 0
	}
	return n
}

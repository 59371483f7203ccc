package providertest

import (
	"fmt"
	"net/http"
)

// llamaCpp is the llama.cpp flavour of the fake (WithLlamaCpp): the server
// as llama.cpp 0.7's tools/server behaves, in what a client can get wrong.
type llamaCpp struct {
	nCtx int // the running window (--ctx-size, per slot)
}

// llamaCppModel is the id llama.cpp lists: the model file's name.
const llamaCppModel = "model.gguf"

// WithLlamaCpp makes the server behave like llama.cpp's server (0.7)
// running one model with a window of nCtx tokens:
//
//   - every answer carries "Server: llama.cpp";
//   - GET /props gives default_generation_settings.n_ctx, GET /v1/models
//     lists the model with meta.n_ctx (the running window) and
//     meta.n_ctx_train; GET /api/version is 404 (it is not Ollama);
//   - a request whose prompt reaches nCtx is refused with
//     exceed_context_size_error (WithContextLimit LimitLlamaCpp), and one
//     asking for more output than the window holds (max_tokens, n_predict)
//     is refused too: with context shift off (llama.cpp's default) such an
//     answer could only be cut at the window, and the strict fake refuses
//     it up front so that a client sending it is seen;
//   - Messages streams follow llama.cpp's layout (LayoutLlamaCpp) and sign
//     nothing: a thinking block ends with an empty signature, and thinking
//     blocks sent back are read as plain reasoning, their signature
//     ignored, with no tool-loop rule on them (Anthropic's rules are not
//     llama.cpp's); it reads thinking the way kind "llamacpp" does;
//   - /infill is its native fill-in-the-middle; /v1/completions accepts a
//     "suffix" and ignores it (FIMRequest.SuffixIgnored), as llama.cpp's
//     OpenAI-compatible completions do.
func WithLlamaCpp(nCtx int) Option {
	return func(s *Server) {
		s.llama = &llamaCpp{nCtx: nCtx}
		s.kind = "llamacpp"
		s.messagesLayout = LayoutLlamaCpp
		s.window = &Window{Kind: WindowLlamaCpp, Model: llamaCppModel, Window: nCtx, Max: 10 * nCtx, ModelsNCtx: true}
		s.limit = &contextLimit{tokens: nCtx, kind: LimitLlamaCpp}
		s.mem.unsigned = true
	}
}

// LlamaCppModel is the model id the llama.cpp flavour lists.
func LlamaCppModel() string { return llamaCppModel }

// header marks an answer as llama.cpp's.
func (l *llamaCpp) header(w http.ResponseWriter) {
	if l != nil {
		w.Header().Set("Server", "llama.cpp")
	}
}

// checkOutput refuses a request asking for more output than the window
// holds. Called after validation, under Server.mu.
func (l *llamaCpp) checkOutput(body []byte) *rejection {
	if l == nil {
		return nil
	}
	req, ok := decodeObject(body)
	if !ok {
		return nil
	}
	for _, k := range []string{"max_tokens", "max_completion_tokens", "n_predict"} {
		if n, ok := req.positiveInt(k); ok && int(n) > l.nCtx {
			return &rejection{status: http.StatusBadRequest,
				message: fmt.Sprintf("%s %d is more than the context size %d", k, n, l.nCtx),
				body: marshal(map[string]any{"error": map[string]any{
					"code": 400, "type": "invalid_request_error", "n_ctx": l.nCtx,
					"message": fmt.Sprintf("the request exceeds the available context size: %s = %d, n_ctx = %d", k, n, l.nCtx),
				}})}
		}
	}
	return nil
}

package providertest

import (
	"encoding/json"
	"io"
	"net/http"
)

// WindowKind is a server kind whose context-window answers the fake gives.
type WindowKind string

// The server kinds of WithWindow.
const (
	WindowLlamaCpp   WindowKind = "llama.cpp"  // GET /props, GET /v1/models (meta.n_ctx_train)
	WindowOllama     WindowKind = "ollama"     // POST /api/show, GET /api/ps, GET /api/version; /v1/models without a window
	WindowVLLM       WindowKind = "vllm"       // GET /v1/models max_model_len
	WindowOpenRouter WindowKind = "openrouter" // GET /api/v1/models context_length
	WindowLMStudio   WindowKind = "lmstudio"   // GET /api/v0/models; /v1/models without a window
	WindowGarbage    WindowKind = "garbage"    // 200 with nonsense on every discovery path
)

// Window is what WithWindow answers: the model's running window and the
// most the model could hold (the training length, Ollama's
// <arch>.context_length, LM Studio's max_context_length).
type Window struct {
	Kind  WindowKind
	Model string // the listed model id
	// Window is what the server runs the model with (llama.cpp n_ctx, Ollama
	// num_ctx, LM Studio loaded_context_length, vLLM max_model_len,
	// OpenRouter context_length). 0 for Ollama: no num_ctx parameter; for
	// LM Studio: the model is not loaded.
	Window int
	Max    int
	// Running is Ollama's /api/ps context_length of the loaded model (0:
	// not loaded).
	Running int
	// ModelsNCtx: llama.cpp's model list carries meta.n_ctx, the running
	// window, beside n_ctx_train.
	ModelsNCtx bool
}

// WithWindow makes the server answer the context-window discovery
// endpoints the way w.Kind does; the others are 404 as on that server.
// These requests are never recorded in Requests (with or without
// WithWindow): they are not model calls.
func WithWindow(w Window) Option { return func(s *Server) { s.window = &w } }

var windowPaths = map[string]bool{
	"/props": true, "/v1/models": true, "/models": true, "/api/v1/models": true,
	"/api/show": true, "/api/ps": true, "/api/v0/models": true, "/api/version": true,
}

// serveWindow answers a discovery request; false: not one. Without
// WithWindow (w nil) every discovery path is 404, as on DeepSeek.
func (w *Window) serveWindow(rw http.ResponseWriter, r *http.Request) bool {
	if !windowPaths[r.URL.Path] {
		return false
	}
	if w == nil {
		writeWindowJSON(rw, http.StatusNotFound, map[string]any{"error": "no such endpoint: " + r.URL.Path})
		return true
	}
	if w.Kind == WindowGarbage {
		rw.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(rw, `{"data":[{"id":"`+w.Model+`","max_model_len":"big","context_length":-5}],"default_generation_settings":{"n_ctx":3},"model_info":{"general.architecture":7}`)
		return true
	}
	list := func(entry map[string]any) map[string]any {
		entry["id"], entry["object"] = w.Model, "model"
		return map[string]any{"object": "list", "data": []any{entry}}
	}
	var body any
	switch p := r.URL.Path; {
	case w.Kind == WindowLlamaCpp && p == "/props":
		body = map[string]any{"default_generation_settings": map[string]any{"n_ctx": w.Window, "params": map[string]any{}}, "total_slots": 1}
	case w.Kind == WindowLlamaCpp && (p == "/v1/models" || p == "/models"):
		meta := map[string]any{"n_ctx_train": w.Max, "n_params": 1}
		if w.ModelsNCtx {
			meta["n_ctx"] = w.Window
		}
		body = list(map[string]any{"owned_by": "llamacpp", "meta": meta})
	case w.Kind == WindowOllama && p == "/api/version":
		body = map[string]any{"version": "0.12.0"}
	case w.Kind == WindowVLLM && (p == "/v1/models" || p == "/models"):
		body = list(map[string]any{"owned_by": "vllm", "max_model_len": w.Window})
	case w.Kind == WindowOpenRouter && p == "/api/v1/models":
		body = list(map[string]any{"context_length": w.Window, "top_provider": map[string]any{"context_length": w.Window}})
	case (w.Kind == WindowOllama || w.Kind == WindowLMStudio) && p == "/v1/models":
		body = list(map[string]any{"owned_by": "library"})
	case w.Kind == WindowOllama && p == "/api/show" && r.Method == http.MethodPost:
		var req struct{ Model string }
		if err := json.NewDecoder(io.LimitReader(r.Body, maxBody)).Decode(&req); err != nil || req.Model != w.Model {
			writeWindowJSON(rw, http.StatusNotFound, map[string]any{"error": "model '" + req.Model + "' not found"})
			return true
		}
		show := map[string]any{"modelfile": "FROM x", "model_info": map[string]any{"general.architecture": "qwen3", "qwen3.context_length": w.Max}}
		if w.Window > 0 {
			show["parameters"] = "stop \"<|im_end|>\"\nnum_ctx " + itoa(w.Window) + "\ntemperature 0.7"
		}
		body = show
	case w.Kind == WindowOllama && p == "/api/ps":
		models := []any{}
		if w.Running > 0 {
			models = append(models, map[string]any{"name": w.Model + ":latest", "model": w.Model + ":latest", "context_length": w.Running, "size_vram": 1})
		}
		body = map[string]any{"models": models}
	case w.Kind == WindowLMStudio && p == "/api/v0/models":
		entry := map[string]any{"type": "llm", "state": "not-loaded", "max_context_length": w.Max}
		if w.Window > 0 {
			entry["state"], entry["loaded_context_length"] = "loaded", w.Window
		}
		body = list(entry)
	default:
		writeWindowJSON(rw, http.StatusNotFound, map[string]any{"error": "File Not Found"})
		return true
	}
	writeWindowJSON(rw, http.StatusOK, body)
	return true
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func writeWindowJSON(rw http.ResponseWriter, status int, body any) {
	data, _ := json.Marshal(body) // maps of plain values always marshal
	writeJSON(rw, status, data, "")
}

package providertest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// Valid streaming bodies of each dialect.
func fimBodies() map[string]obj {
	return map[string]obj{
		FIMDeepSeek: {"model": "deepseek-chat", "prompt": "def f(", "suffix": "\n", "max_tokens": 64, "stream": true},
		FIMOpenAI:   {"model": "gpt-3.5-turbo-instruct", "prompt": "def f(", "suffix": "\n", "max_tokens": 64, "stream": true},
		FIMMistral:  {"model": "codestral-latest", "prompt": "def f(", "suffix": "\n", "max_tokens": 64, "stream": true},
		FIMLlamaCpp: {"input_prefix": "def f(", "input_suffix": "\n", "n_predict": 64, "stream": true},
		FIMOllama:   {"model": "qwen2.5-coder", "prompt": "def f(", "suffix": "\n", "stream": true, "options": obj{"num_predict": 64}},
	}
}

var fimPaths = map[string]string{
	FIMDeepSeek: "/beta/completions", FIMOpenAI: "/v1/completions", FIMMistral: "/v1/fim/completions",
	FIMLlamaCpp: "/infill", FIMOllama: "/api/generate",
}

func postFIM(t *testing.T, s *Server, dialect string, body any) reply {
	t.Helper()
	return postRaw(t, s.FIMBaseURL()+fimPaths[dialect], chatHeader(), mustJSON(t, body))
}

func withFields(b obj, kv ...any) obj {
	out := obj{}
	for k, v := range b {
		out[k] = v
	}
	for i := 0; i < len(kv); i += 2 {
		if kv[i+1] == nil {
			delete(out, kv[i].(string))
			continue
		}
		out[kv[i].(string)] = kv[i+1]
	}
	return out
}

// A body shaped for one dialect is refused by the others' endpoints, and a
// refusal consumes no turn.
func TestFIMWrongDialectBodyIsRefused(t *testing.T) {
	b := fimBodies()
	tests := []struct {
		body, endpoint string
		status         int
		says           string
	}{
		{FIMLlamaCpp, FIMDeepSeek, 400, "model: missing field"},
		{FIMOllama, FIMDeepSeek, 400, "unknown field `options`"},
		{FIMDeepSeek, FIMLlamaCpp, 400, "input_prefix"},
		{FIMOllama, FIMLlamaCpp, 400, "input_prefix"},
		{FIMDeepSeek, FIMOllama, 400, "max_tokens"},
		{FIMLlamaCpp, FIMOllama, 400, "model"},
		{FIMOllama, FIMMistral, 422, "Extra inputs are not permitted"},
		{FIMLlamaCpp, FIMMistral, 422, "missing"},
		{FIMOllama, FIMOpenAI, 400, "Unrecognized request argument supplied: options"},
		{FIMLlamaCpp, FIMOpenAI, 400, "model: missing field"},
	}
	s := NewServer(t, Script{{FIM: &FIMTurn{Text: "x"}}})
	for _, tc := range tests {
		rep := postFIM(t, s, tc.endpoint, b[tc.body])
		if rep.status != tc.status || !strings.Contains(string(rep.body), tc.says) {
			t.Errorf("%s body to %s: %d %s; want %d saying %q", tc.body, tc.endpoint, rep.status, rep.body, tc.status, tc.says)
		}
	}
	if s.Consumed() != 0 || len(s.FIMRequests()) != 0 {
		t.Errorf("refusals consumed %d turns, recorded %d FIM requests", s.Consumed(), len(s.FIMRequests()))
	}
	for _, r := range s.Requests() {
		if r.Rejected == "" || r.Turn != -1 {
			t.Errorf("%s %s recorded as accepted: %+v", r.Dialect, r.Path, r)
		}
	}
}

func TestFIMStrictRules(t *testing.T) {
	b := fimBodies()
	tests := []struct {
		name    string
		dialect string
		body    obj
		status  int    // 200: accepted
		says    string // in the error body
	}{
		{"deepseek max_tokens bound", FIMDeepSeek, withFields(b[FIMDeepSeek], "max_tokens", 4097), 400, "the valid range of max_tokens is [1, 4096]"},
		{"deepseek max_tokens at the bound", FIMDeepSeek, withFields(b[FIMDeepSeek], "max_tokens", 4096), 200, ""},
		{"deepseek null suffix", FIMDeepSeek, withFields(b[FIMDeepSeek], "suffix", json.RawMessage("null")), 200, ""},
		{"deepseek no suffix", FIMDeepSeek, withFields(b[FIMDeepSeek], "suffix", nil), 200, ""},
		{"max_tokens not an integer", FIMOpenAI, withFields(b[FIMOpenAI], "max_tokens", 1.5), 400, "max_tokens: expected an integer"},
		{"deepseek max_tokens 0", FIMDeepSeek, withFields(b[FIMDeepSeek], "max_tokens", 0), 400, "valid range of max_tokens"},
		{"not streaming", FIMDeepSeek, withFields(b[FIMDeepSeek], "stream", false), 400, "streaming requests only"},
		{"no model", FIMOpenAI, withFields(b[FIMOpenAI], "model", nil), 400, "model: missing field"},
		{"empty model", FIMMistral, withFields(b[FIMMistral], "model", ""), 422, "non-empty string"},
		{"prompt not a string", FIMDeepSeek, withFields(b[FIMDeepSeek], "prompt", []string{"a"}), 400, "prompt: expected string, got array"},
		{"echo with suffix", FIMDeepSeek, withFields(b[FIMDeepSeek], "echo", true), 400, "echo is not supported with suffix"},
		{"temperature out of range", FIMMistral, withFields(b[FIMMistral], "temperature", 3), 422, "out of range"},
		{"openai: 5 stops", FIMOpenAI, withFields(b[FIMOpenAI], "stop", []string{"a", "b", "c", "d", "e"}), 400, "at most 4"},
		{"deepseek: 16 stops", FIMDeepSeek, withFields(b[FIMDeepSeek], "stop", strings.Split("abcdefghijklmnop", "")), 200, ""},
		{"openai unknown field", FIMOpenAI, withFields(b[FIMOpenAI], "input_prefix", "x"), 400, "Unrecognized request argument supplied: input_prefix"},
		{"stream_options without stream", FIMOpenAI, withFields(b[FIMOpenAI], "stream", false, "stream_options", obj{"include_usage": true}), 400, "only allowed when stream"},
		{"mistral stream_options", FIMMistral, withFields(b[FIMMistral], "stream_options", obj{"include_usage": true}), 422, `"loc":["body","stream_options"]`},
		{"llama.cpp extra chunk without text", FIMLlamaCpp, withFields(b[FIMLlamaCpp], "input_extra", []obj{{"filename": "a.go"}}), 400, `must contain a \"text\" field`},
		{"llama.cpp extra chunk", FIMLlamaCpp, withFields(b[FIMLlamaCpp], "input_extra", []obj{{"filename": "a.go", "text": "package a"}}), 200, ""},
		{"null in stop", FIMMistral, withFields(b[FIMMistral], "stop", []any{"a", nil}), 422, "a string or an array of strings"},
		{"llama.cpp stop as a string", FIMLlamaCpp, withFields(b[FIMLlamaCpp], "stop", "\n"), 400, "expected an array of strings"},
		{"llama.cpp without input_suffix", FIMLlamaCpp, withFields(b[FIMLlamaCpp], "input_suffix", nil), 400, "input_suffix"},
		{"llama.cpp max_tokens", FIMLlamaCpp, withFields(b[FIMLlamaCpp], "max_tokens", 5), 400, "max_tokens: unknown field"},
		{"ollama raw with suffix", FIMOllama, withFields(b[FIMOllama], "raw", true), 400, `{"error":"raw mode does not support suffix"}`},
		{"ollama unknown option", FIMOllama, withFields(b[FIMOllama], "options", obj{"max_tokens": 5}), 400, "max_tokens: unknown field"},
		{"ollama top-level num_predict", FIMOllama, withFields(b[FIMOllama], "num_predict", 5), 400, "num_predict: unknown field"},
		{"ollama streams by default", FIMOllama, withFields(b[FIMOllama], "stream", nil), 200, ""},
		{"ollama stream false", FIMOllama, withFields(b[FIMOllama], "stream", false), 400, "streaming requests only"},
		{"ollama empty prompt and suffix", FIMOllama, withFields(b[FIMOllama], "prompt", "", "suffix", ""), 400, "only load the model"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := NewServer(t, Script{{FIM: &FIMTurn{Text: "x"}}})
			rep := postFIM(t, s, tc.dialect, tc.body)
			if rep.status != tc.status || !strings.Contains(string(rep.body), tc.says) {
				t.Errorf("%d %s; want %d saying %q", rep.status, rep.body, tc.status, tc.says)
			}
			if accepted := s.Consumed() == 1; accepted != (tc.status == 200) {
				t.Errorf("consumed %d turns", s.Consumed())
			}
		})
	}
}

// fimText reassembles the text and reads the finish of a raw answer,
// independently of package fim's decoder.
func fimText(t *testing.T, dialect string, rep reply) (text string, last map[string]any, frames []map[string]any) {
	t.Helper()
	var datas []string
	if dialect == FIMOllama {
		if ct := rep.header.Get("Content-Type"); ct != "application/x-ndjson" {
			t.Errorf("Ollama content type %q", ct)
		}
		sc := bufio.NewScanner(bytes.NewReader(rep.body))
		for sc.Scan() {
			datas = append(datas, sc.Text())
		}
	} else {
		for _, f := range rep.frames {
			datas = append(datas, f.data)
		}
	}
	for i, d := range datas {
		if d == "[DONE]" {
			if i != len(datas)-1 || dialect == FIMLlamaCpp {
				t.Errorf("[DONE] at frame %d of %d in %s", i, len(datas), dialect)
			}
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(d), &m); err != nil {
			t.Fatalf("frame %q: %v", d, err)
		}
		frames = append(frames, m)
		switch dialect {
		case FIMDeepSeek, FIMOpenAI:
			if c, ok := path(m, "choices", 0, "text").(string); ok {
				text += c
			}
		case FIMMistral:
			if c, ok := path(m, "choices", 0, "delta", "content").(string); ok {
				text += c
			}
		case FIMLlamaCpp:
			text += m["content"].(string)
		case FIMOllama:
			text += m["response"].(string)
		}
	}
	return text, frames[len(frames)-1], frames
}

func TestFIMStreamFormats(t *testing.T) {
	const want = "a, b int) int {\n\treturn a + b\n}"
	for dialect, body := range fimBodies() {
		for _, stop := range []string{FIMStop, FIMLength} {
			t.Run(dialect+"/"+stop, func(t *testing.T) {
				s := NewServer(t, Script{{FIM: &FIMTurn{Text: want, Stop: stop, PromptTokens: 7}}}, WithSeed(3))
				rep := postFIM(t, s, dialect, body)
				if rep.status != 200 || rep.err != nil {
					t.Fatalf("%d %s %v", rep.status, rep.body, rep.err)
				}
				text, last, frames := fimText(t, dialect, rep)
				if text != want {
					t.Errorf("text %q, want %q", text, want)
				}
				if len(frames) < 3 {
					t.Errorf("%d frames: the text was not streamed in deltas", len(frames))
				}
				var gotStop, prompt any
				switch dialect {
				case FIMDeepSeek, FIMMistral:
					gotStop, prompt = path(last, "choices", 0, "finish_reason"), path(last, "usage", "prompt_tokens")
				case FIMOpenAI:
					gotStop, prompt = path(last, "choices", 0, "finish_reason"), float64(7) // no usage unless asked for
					if last["usage"] != nil {
						t.Errorf("usage sent without stream_options: %v", last)
					}
				case FIMLlamaCpp:
					gotStop, prompt = map[bool]string{true: "length", false: "stop"}[last["stop_type"] == "limit"], last["tokens_evaluated"]
					if last["stop"] != true || last["stopped_limit"] != (stop == FIMLength) {
						t.Errorf("llama.cpp final frame %v", last)
					}
				case FIMOllama:
					gotStop, prompt = last["done_reason"], last["prompt_eval_count"]
					if last["done"] != true {
						t.Errorf("Ollama final line %v", last)
					}
				}
				if gotStop != stop || prompt != float64(7) {
					t.Errorf("stop %v prompt tokens %v; want %s, 7 (last frame %v)", gotStop, prompt, stop, last)
				}
				if dialect == FIMMistral && path(frames[0], "choices", 0, "delta", "role") != "assistant" {
					t.Errorf("Mistral's first chunk %v, want the assistant role", frames[0])
				}
			})
		}
	}
}

// OpenAI sends usage on a chunk of its own, after the finish, only when
// stream_options asks for it.
func TestFIMOpenAIUsageChunk(t *testing.T) {
	s := NewServer(t, Script{{FIM: &FIMTurn{Text: "x", PromptTokens: 5, CompletionTokens: 1}}})
	rep := postFIM(t, s, FIMOpenAI, withFields(fimBodies()[FIMOpenAI], "stream_options", obj{"include_usage": true}))
	_, last, frames := fimText(t, FIMOpenAI, rep)
	if n := len(path(last, "choices").([]any)); n != 0 || path(last, "usage", "total_tokens") != float64(6) {
		t.Errorf("last chunk %v, want choices [] with the usage", last)
	}
	if path(frames[len(frames)-2], "choices", 0, "finish_reason") != "stop" {
		t.Errorf("the finish is not before the usage chunk: %v", frames)
	}
}

// A scripted status is answered in the dialect's error shape.
func TestFIMFaultStatusBodies(t *testing.T) {
	tests := map[string]string{
		FIMDeepSeek: `{"error":{"message":"Service Unavailable","type":"server_overloaded"`,
		FIMLlamaCpp: `{"error":{"code":503,"message":"Service Unavailable","type":"unavailable_error"}}`,
		FIMOllama:   `{"error":"Service Unavailable"}`,
		FIMMistral:  `{"object":"error","message":"Service Unavailable","type":"server_overloaded"`,
	}
	for dialect, want := range tests {
		s := NewServer(t, Script{{Fault: &Fault{Status: 503, RetryAfter: "2"}}})
		rep := postFIM(t, s, dialect, fimBodies()[dialect])
		if rep.status != 503 || !strings.HasPrefix(string(rep.body), want) || rep.header.Get("Retry-After") != "2" {
			t.Errorf("%s: %d %s (Retry-After %q); want 503 %s", dialect, rep.status, rep.body, rep.header.Get("Retry-After"), want)
		}
	}
}

func TestFIMRecordsTheRequest(t *testing.T) {
	s := NewServer(t, Script{{FIM: &FIMTurn{Text: "x"}}, {FIM: &FIMTurn{Text: "y"}}})
	postFIM(t, s, FIMLlamaCpp, withFields(fimBodies()[FIMLlamaCpp], "stop", []string{"\n"}, "temperature", 0.1,
		"input_extra", []obj{{"filename": "b.go", "text": "package b"}}))
	postFIM(t, s, FIMOllama, withFields(fimBodies()[FIMOllama], "options", obj{"num_predict": 9, "stop": []string{"}"}}))
	reqs := s.FIMRequests()
	if len(reqs) != 2 {
		t.Fatalf("%d FIM requests", len(reqs))
	}
	l, o := reqs[0], reqs[1]
	if l.Dialect != FIMLlamaCpp || l.Prefix != "def f(" || l.Suffix != "\n" || l.MaxTokens != 64 ||
		len(l.Stop) != 1 || *l.Temperature != 0.1 || len(l.Extra) != 1 || l.Extra[0] != (FIMFile{"b.go", "package b"}) || l.Turn != 0 {
		t.Errorf("llama.cpp request %+v", l)
	}
	if o.Dialect != FIMOllama || o.Model != "qwen2.5-coder" || o.MaxTokens != 9 || len(o.Stop) != 1 || o.Stop[0] != "}" || o.Turn != 1 {
		t.Errorf("Ollama request %+v", o)
	}
	<-l.Ended() // postRaw read the whole answer: the handler is done or about to be
	if !l.ClosedAt().IsZero() {
		t.Errorf("a fully read answer marked closed by the client")
	}
}

// Delays and finite stalls slow the answer without changing it; the chat
// Fault kinds a FIM turn takes disturb it in the dialect's framing.
func TestFIMDelaysAndFaults(t *testing.T) {
	chunks := []string{"a", "b", "c"}
	tests := []struct {
		name    string
		dialect string
		turn    Turn
		check   func(t *testing.T, rep reply)
	}{
		{"delay", FIMMistral, Turn{FIM: &FIMTurn{Chunks: chunks, Delay: time.Millisecond}}, func(t *testing.T, rep reply) {
			if text, _, _ := fimText(t, FIMMistral, rep); text != "abc" {
				t.Errorf("text %q", text)
			}
		}},
		{"finite stall", FIMOllama, Turn{FIM: &FIMTurn{Chunks: chunks, Stall: time.Millisecond, StallAfter: 2}}, func(t *testing.T, rep reply) {
			if text, last, _ := fimText(t, FIMOllama, rep); text != "abc" || last["done"] != true {
				t.Errorf("text %q, last %v", text, last)
			}
		}},
		{"no finish", FIMLlamaCpp, Turn{FIM: &FIMTurn{Chunks: chunks}, Fault: &Fault{NoFinish: true}}, func(t *testing.T, rep reply) {
			if text, last, _ := fimText(t, FIMLlamaCpp, rep); text != "abc" || last["stop"] != false {
				t.Errorf("text %q, last %v", text, last)
			}
		}},
		{"garbage", FIMOllama, Turn{FIM: &FIMTurn{Chunks: chunks}, Fault: &Fault{Garbage: true, AfterFrames: 1}}, func(t *testing.T, rep reply) {
			if lines := strings.Split(string(rep.body), "\n"); len(lines) < 2 || json.Valid([]byte(lines[1])) || !json.Valid([]byte(lines[2])) {
				t.Errorf("want line 2 not JSON and the stream going on: %q", rep.body)
			}
		}},
		{"error event", FIMDeepSeek, Turn{FIM: &FIMTurn{Chunks: chunks}, Fault: &Fault{ErrorEvent: true, AfterFrames: 2}}, func(t *testing.T, rep reply) {
			if n := len(rep.frames); n != 3 || !strings.Contains(rep.frames[2].data, `"type":"server_error"`) {
				t.Errorf("frames %v, want 2 deltas and the error", rep.frames)
			}
		}},
		{"drop", FIMOpenAI, Turn{FIM: &FIMTurn{Chunks: chunks}, Fault: &Fault{DropAfterFrames: 1}}, func(t *testing.T, rep reply) {
			if !isUnexpectedEOF(rep.err) || !strings.Contains(string(rep.body), `"text":"a"`) || strings.Contains(string(rep.body), `"text":"b"`) {
				t.Errorf("body %q, error %v; want one delta and an unexpected EOF", rep.body, rep.err)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := NewServer(t, Script{tc.turn})
			rep := postFIM(t, s, tc.dialect, fimBodies()[tc.dialect])
			if rep.status != 200 {
				t.Fatalf("%d %s", rep.status, rep.body)
			}
			tc.check(t, rep)
		})
	}
}

package providertest

import (
	"encoding/json"
	"time"
)

// The FIM answers, streamed each in its server's format:
//   - DeepSeek and OpenAI: completions chunks (choices[0].text), the finish
//     chunk's finish_reason, usage on it (DeepSeek) or, when stream_options
//     asks for it, on a "choices":[] chunk after it (OpenAI); then [DONE].
//   - Mistral: chat-style chunks (choices[0].delta.content), a first chunk
//     with the assistant role, usage on the finish chunk; then [DONE].
//   - llama.cpp /infill: {"content","stop":false} frames, then one with
//     "stop":true, stop_type and the token counts; no sentinel.
//   - Ollama /api/generate: NDJSON {"response","done":false} lines, then a
//     "done":true line with done_reason and eval counts.

// fimFrame is one frame of a FIM answer; delta marks the frames that carry
// a piece of the text (the ones FIMTurn.Delay waits before).
type fimFrame struct {
	data  []byte
	delta bool
}

type completionsChunk struct {
	ID                string              `json:"id"`
	Object            string              `json:"object"`
	Created           int64               `json:"created"`
	Model             string              `json:"model"`
	SystemFingerprint string              `json:"system_fingerprint,omitempty"`
	Choices           []completionsChoice `json:"choices"`
	Usage             json.RawMessage     `json:"usage,omitempty"`
}

type completionsChoice struct {
	Text         string    `json:"text"`
	Index        int       `json:"index"`
	Logprobs     *struct{} `json:"logprobs"`
	FinishReason *string   `json:"finish_reason"`
}

type mistralChunk struct {
	ID      string          `json:"id"`
	Object  string          `json:"object"`
	Created int64           `json:"created"`
	Model   string          `json:"model"`
	Choices []mistralChoice `json:"choices"`
	Usage   json.RawMessage `json:"usage,omitempty"`
}

type mistralChoice struct {
	Index        int          `json:"index"`
	Delta        mistralDelta `json:"delta"`
	FinishReason *string      `json:"finish_reason"`
}

type mistralDelta struct {
	Role    string `json:"role,omitempty"`
	Content string `json:"content"`
}

type fimUsage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

type llamaInfillChunk struct {
	Index           int             `json:"index"`
	Content         string          `json:"content"`
	Tokens          []int           `json:"tokens"`
	Stop            bool            `json:"stop"`
	IDSlot          int             `json:"id_slot"`
	TokensPredicted int             `json:"tokens_predicted"`
	TokensEvaluated int             `json:"tokens_evaluated"`
	Model           string          `json:"model,omitempty"`
	StopType        string          `json:"stop_type,omitempty"`
	StoppingWord    *string         `json:"stopping_word,omitempty"`
	StoppedEOS      *bool           `json:"stopped_eos,omitempty"`
	StoppedLimit    *bool           `json:"stopped_limit,omitempty"`
	StoppedWord     *bool           `json:"stopped_word,omitempty"`
	Timings         json.RawMessage `json:"timings,omitempty"`
}

type ollamaChunk struct {
	Model              string `json:"model"`
	CreatedAt          string `json:"created_at"`
	Response           string `json:"response"`
	Done               bool   `json:"done"`
	DoneReason         string `json:"done_reason,omitempty"`
	Context            []int  `json:"context,omitempty"`
	TotalDuration      int64  `json:"total_duration,omitempty"`
	PromptEvalCount    int    `json:"prompt_eval_count,omitempty"`
	PromptEvalDuration int64  `json:"prompt_eval_duration,omitempty"`
	EvalCount          int    `json:"eval_count,omitempty"`
	EvalDuration       int64  `json:"eval_duration,omitempty"`
}

// fimAnswerSpec is what the frames of one answer are built from.
type fimAnswerSpec struct {
	req          *FIMRequest
	deltas       []string
	length       bool // stopped by the token bound
	usage        fimUsage
	includeUsage bool // stream_options.include_usage (OpenAI's separate chunk)
	id           string
	created      time.Time
}

// fimFrames builds the answer's frames and the index of the finish's first.
func fimFrames(a fimAnswerSpec) (frames []fimFrame, finishFrom int) {
	add := func(data []byte, delta bool) { frames = append(frames, fimFrame{data: data, delta: delta}) }
	sse := func(v any) []byte { return chatFrame(marshal(v)) }
	model := a.req.Model
	reason := "stop"
	if a.length {
		reason = "length"
	}
	switch a.req.Dialect {
	case FIMDeepSeek, FIMOpenAI:
		chunk := func(text string, finish *string, usage json.RawMessage) []byte {
			return sse(completionsChunk{
				ID: a.id, Object: "text_completion", Created: a.created.Unix(), Model: model,
				SystemFingerprint: "fp_providertest",
				Choices:           []completionsChoice{{Text: text, FinishReason: finish}}, Usage: usage,
			})
		}
		for _, d := range a.deltas {
			add(chunk(d, nil, nil), true)
		}
		finishFrom = len(frames)
		if a.req.Dialect == FIMDeepSeek {
			add(chunk("", &reason, marshal(a.usage)), false)
		} else {
			add(chunk("", &reason, nil), false)
			if a.includeUsage {
				add(sse(completionsChunk{
					ID: a.id, Object: "text_completion", Created: a.created.Unix(), Model: model,
					Choices: []completionsChoice{}, Usage: marshal(a.usage),
				}), false)
			}
		}
		add([]byte("data: [DONE]\n\n"), false)
	case FIMMistral:
		chunk := func(d mistralDelta, finish *string, usage json.RawMessage) []byte {
			return sse(mistralChunk{
				ID: a.id, Object: "chat.completion.chunk", Created: a.created.Unix(), Model: model,
				Choices: []mistralChoice{{Delta: d, FinishReason: finish}}, Usage: usage,
			})
		}
		add(chunk(mistralDelta{Role: "assistant"}, nil, nil), false)
		for _, d := range a.deltas {
			add(chunk(mistralDelta{Content: d}, nil, nil), true)
		}
		finishFrom = len(frames)
		add(chunk(mistralDelta{}, &reason, marshal(a.usage)), false)
		add([]byte("data: [DONE]\n\n"), false)
	case FIMLlamaCpp:
		for i, d := range a.deltas {
			add(sse(llamaInfillChunk{Content: d, Tokens: []int{}, TokensPredicted: i + 1,
				TokensEvaluated: a.usage.PromptTokens}), true)
		}
		finishFrom = len(frames)
		stopType, no, yes, word := "eos", false, true, ""
		final := llamaInfillChunk{
			Tokens: []int{}, Stop: true, Model: model, TokensPredicted: a.usage.CompletionTokens,
			TokensEvaluated: a.usage.PromptTokens, StoppingWord: &word,
			StoppedEOS: &yes, StoppedLimit: &no, StoppedWord: &no,
			Timings: marshal(map[string]int{"prompt_n": a.usage.PromptTokens, "predicted_n": a.usage.CompletionTokens}),
		}
		if a.length {
			stopType, final.StoppedEOS, final.StoppedLimit = "limit", &no, &yes
		}
		final.StopType = stopType
		add(sse(final), false)
	case FIMOllama:
		at := a.created.UTC().Format(time.RFC3339Nano)
		for _, d := range a.deltas {
			add(append(marshal(ollamaChunk{Model: model, CreatedAt: at, Response: d}), '\n'), true)
		}
		finishFrom = len(frames)
		add(append(marshal(ollamaChunk{
			Model: model, CreatedAt: at, Done: true, DoneReason: reason, Context: []int{1, 2, 3},
			TotalDuration: 1_000_000, PromptEvalCount: a.usage.PromptTokens, PromptEvalDuration: 100_000,
			EvalCount: a.usage.CompletionTokens, EvalDuration: 500_000,
		}), '\n'), false)
	}
	return frames, finishFrom
}

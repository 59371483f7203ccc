package fim

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/agent-lsp/agent-lsp/provider"
)

// wireFrame is the union of the four answers' frames: the fields of one
// never appear in another's, so one struct reads them all.
type wireFrame struct {
	// completions and chat-delta styles
	Choices []wireChoice `json:"choices"`
	Usage   *struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
	} `json:"usage"`
	// llama.cpp /infill
	Content         string `json:"content"`
	Stop            bool   `json:"stop"`
	StopType        string `json:"stop_type"`
	StoppedLimit    bool   `json:"stopped_limit"`
	TokensPredicted int    `json:"tokens_predicted"`
	TokensEvaluated int    `json:"tokens_evaluated"`
	// Ollama /api/generate
	Response        string `json:"response"`
	Done            bool   `json:"done"`
	DoneReason      string `json:"done_reason"`
	PromptEvalCount int    `json:"prompt_eval_count"`
	EvalCount       int    `json:"eval_count"`
	// Error is kept raw: an object on the OpenAI-style servers, a string on Ollama.
	Error json.RawMessage `json:"error"`
}

type wireChoice struct {
	Index int    `json:"index"`
	Text  string `json:"text"`
	Delta struct {
		Content string `json:"content"`
	} `json:"delta"`
	FinishReason string `json:"finish_reason"`
}

// decoder holds the state of one answer stream.
type decoder struct {
	answer   answer
	finished bool // a finish has been seen
	done     bool // EventDone has been emitted
	stop     provider.StopReason
	usage    provider.Usage
}

var doneSentinel = []byte("[DONE]")

func (d *decoder) Frame(_ string, data []byte, emit func(provider.Event)) error {
	if d.done {
		return nil
	}
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return nil
	}
	if bytes.Equal(data, doneSentinel) {
		if d.finished {
			d.emitDone(emit)
		}
		return nil // without a finish, End reports the truncation
	}
	var f wireFrame
	if err := json.Unmarshal(data, &f); err != nil {
		return fmt.Errorf("FIM frame %s: %w", excerpt(data), err)
	}
	if len(f.Error) > 0 && !bytes.Equal(f.Error, []byte("null")) {
		return streamError(f.Error)
	}
	switch d.answer {
	case answerCompletions, answerChatDelta:
		d.choices(&f, emit)
	case answerInfill:
		text(f.Content, emit)
		if f.Stop {
			d.finish(provider.StopEndTurn, f.TokensEvaluated, f.TokensPredicted)
			if f.StoppedLimit || f.StopType == "limit" {
				d.stop = provider.StopMaxTokens
			}
			d.emitDone(emit)
		}
	case answerGenerate:
		text(f.Response, emit)
		if f.Done {
			d.finish(stopOf(f.DoneReason), f.PromptEvalCount, f.EvalCount)
			d.emitDone(emit)
		}
	}
	return nil
}

// choices handles an OpenAI-style chunk. Usage may ride on the finish chunk
// (DeepSeek) or come in a later chunk without choices (OpenAI): the answer
// is done when both are in, or at [DONE].
func (d *decoder) choices(f *wireFrame, emit func(provider.Event)) {
	for i := range f.Choices {
		c := &f.Choices[i]
		if c.Index != 0 {
			continue // one choice is ever requested
		}
		if d.answer == answerChatDelta {
			text(c.Delta.Content, emit)
		} else {
			text(c.Text, emit)
		}
		if c.FinishReason != "" && !d.finished {
			d.finished, d.stop = true, stopOf(c.FinishReason)
		}
	}
	if f.Usage != nil {
		d.usage = provider.Usage{PromptTokens: f.Usage.PromptTokens, CompletionTokens: f.Usage.CompletionTokens}
		if d.finished {
			d.emitDone(emit)
		}
	}
}

func (d *decoder) finish(stop provider.StopReason, prompt, completion int) {
	d.finished, d.stop = true, stop
	d.usage = provider.Usage{PromptTokens: prompt, CompletionTokens: completion}
}

func (d *decoder) emitDone(emit func(provider.Event)) {
	d.done = true
	emit(provider.Event{Type: provider.EventDone, StopReason: d.stop, Usage: d.usage})
}

// End accepts a stream whose finish came without the [DONE] that would
// have closed it (some compatible servers omit it).
func (d *decoder) End(emit func(provider.Event)) error {
	if d.finished {
		d.emitDone(emit)
		return nil
	}
	return errors.New("no finish in the FIM stream")
}

func text(s string, emit func(provider.Event)) {
	if s != "" {
		emit(provider.Event{Type: provider.EventText, Text: s})
	}
}

// stopOf reads a finish_reason / done_reason: "length" is the token bound,
// anything else an ordinary end.
func stopOf(reason string) provider.StopReason {
	if reason == "length" {
		return provider.StopMaxTokens
	}
	return provider.StopEndTurn
}

// streamError turns an in-stream error (an object with a message, or a
// plain string) into the server error it reports.
func streamError(raw json.RawMessage) error {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return &provider.ServerError{Message: s}
	}
	var o struct {
		Message string `json:"message"`
		Type    string `json:"type"`
	}
	if json.Unmarshal(raw, &o) == nil && o.Message != "" {
		return &provider.ServerError{Type: o.Type, Message: o.Message}
	}
	return &provider.ServerError{Message: excerpt(raw)}
}

// excerpt shortens a frame for an error message, at a rune boundary.
func excerpt(b []byte) string {
	const limit = 200
	if len(b) <= limit {
		return string(b)
	}
	cut := limit
	for cut > 0 && !utf8.RuneStart(b[cut]) {
		cut--
	}
	return string(b[:cut]) + "…"
}

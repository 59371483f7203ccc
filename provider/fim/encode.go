package fim

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// completionsBody is DeepSeek's, Mistral's and OpenAI's FIM request.
type completionsBody struct {
	Model         string         `json:"model"`
	Prompt        string         `json:"prompt"`
	Suffix        string         `json:"suffix"`
	MaxTokens     int            `json:"max_tokens,omitempty"`
	Stream        bool           `json:"stream"`
	StreamOptions *streamOptions `json:"stream_options,omitempty"`
	Stop          []string       `json:"stop,omitempty"`
	Temperature   *float64       `json:"temperature,omitempty"`
}

type streamOptions struct {
	IncludeUsage bool `json:"include_usage"`
}

// infillBody is llama.cpp's /infill request.
type infillBody struct {
	Model       string        `json:"model,omitempty"`
	InputPrefix string        `json:"input_prefix"`
	InputSuffix string        `json:"input_suffix"`
	InputExtra  []infillChunk `json:"input_extra,omitempty"`
	NPredict    int           `json:"n_predict,omitempty"`
	Stream      bool          `json:"stream"`
	Stop        []string      `json:"stop,omitempty"`
	Temperature *float64      `json:"temperature,omitempty"`
}

type infillChunk struct {
	Filename string `json:"filename"`
	Text     string `json:"text"`
}

// generateBody is Ollama's /api/generate request. "raw" is never sent: raw
// mode skips the model's template, which is what places the suffix.
type generateBody struct {
	Model   string           `json:"model"`
	Prompt  string           `json:"prompt"`
	Suffix  string           `json:"suffix"`
	Stream  bool             `json:"stream"`
	Options *generateOptions `json:"options,omitempty"`
}

type generateOptions struct {
	NumPredict  int      `json:"num_predict,omitempty"`
	Stop        []string `json:"stop,omitempty"`
	Temperature *float64 `json:"temperature,omitempty"`
}

// encode builds the streaming request body of req for the flavour.
func (f flavour) encode(model string, req Request) ([]byte, error) {
	var temp *float64
	if req.Temperature >= 0 {
		t := req.Temperature
		temp = &t
	}
	stop := f.stops(req.Stop)
	maxTokens := f.maxTokens(req.MaxTokens)
	var body any
	switch f.shape {
	case shapeCompletions:
		b := completionsBody{
			Model: model, Prompt: f.prompt(req), Suffix: req.Suffix, MaxTokens: maxTokens,
			Stream: true, Stop: stop, Temperature: temp,
		}
		if f.streamUsage {
			b.StreamOptions = &streamOptions{IncludeUsage: true}
		}
		body = b
	case shapeInfill:
		b := infillBody{
			Model: model, InputPrefix: f.prompt(req), InputSuffix: req.Suffix, NPredict: maxTokens,
			Stream: true, Stop: stop, Temperature: temp,
		}
		for _, x := range req.Extra {
			b.InputExtra = append(b.InputExtra, infillChunk{Filename: x.Path, Text: x.Text})
		}
		body = b
	case shapeGenerate:
		b := generateBody{Model: model, Prompt: f.prompt(req), Suffix: req.Suffix, Stream: true}
		if maxTokens > 0 || len(stop) > 0 || temp != nil {
			b.Options = &generateOptions{NumPredict: maxTokens, Stop: stop, Temperature: temp}
		}
		body = b
	default:
		return nil, fmt.Errorf("FIM dialect %s has no request shape", f.name)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // code is full of <, > and &: keep it readable in recordings
	if err := enc.Encode(body); err != nil {
		return nil, fmt.Errorf("encoding the %s FIM request: %w", f.name, err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// prompt is the text before the cursor as the dialect gets it: the other
// files first (unless the body has a field for them), then the file's path
// as a comment, then the prefix. Without a known comment syntax no header
// is written: a header in the wrong syntax would teach the model to write
// broken code. A body with a field for other files (llama.cpp's
// input_extra) gets the bare prefix: llama.cpp lays the prompt out as a
// repository ([FIM_SEP]name per file) and names the current file itself
// ("filename"), so a header of ours would give the file a second name.
func (f flavour) prompt(req Request) string {
	comment := lineComment(req.Language, req.Path)
	if comment == "" || f.extraField || (req.Path == "" && len(req.Extra) == 0) {
		return req.Prefix
	}
	var b strings.Builder
	if !f.extraField {
		for _, x := range req.Extra {
			b.WriteString(comment + " Path: " + x.Path + "\n")
			b.WriteString(x.Text)
			if !strings.HasSuffix(x.Text, "\n") {
				b.WriteByte('\n')
			}
			b.WriteByte('\n')
		}
	}
	if req.Path != "" {
		b.WriteString(comment + " Path: " + req.Path + "\n")
	}
	b.WriteString(req.Prefix)
	return b.String()
}

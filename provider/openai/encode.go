package openai

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/agent-lsp/agent-lsp/provider"
)

// The wire request. Every field is a struct field (never a map) so the
// field order, and therefore the bytes, are fixed: DeepSeek's prompt cache
// hits on an identical byte prefix, so the same history must encode to the
// same bytes on every round.
type wireRequest struct {
	Model    string        `json:"model"`
	Messages []wireMessage `json:"messages"`
	Stream   bool          `json:"stream"`
	// StreamOptions asks OpenAI proper for a usage chunk; DeepSeek ignores
	// it and puts usage on the finish chunk anyway.
	StreamOptions wireStreamOptions `json:"stream_options"`
	MaxTokens     int               `json:"max_tokens,omitempty"`
	Tools         []wireTool        `json:"tools,omitempty"`
	// The thinking switches: which of them a request carries is the server
	// kind's flavour (thinking.go).
	Thinking           *wireThinking       `json:"thinking,omitempty"`
	ReasoningEffort    string              `json:"reasoning_effort,omitempty"`
	ChatTemplateKwargs *wireTemplateKwargs `json:"chat_template_kwargs,omitempty"`
	Reasoning          *wireReasoning      `json:"reasoning,omitempty"`
}

type wireStreamOptions struct {
	IncludeUsage bool `json:"include_usage"`
}

type wireTool struct {
	Type     string       `json:"type"` // always "function"
	Function wireFunction `json:"function"`
}

type wireFunction struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

type wireMessage struct {
	Role       string `json:"role"`
	ToolCallID string `json:"tool_call_id,omitempty"`
	// Content is a pointer only so an assistant turn that is nothing but tool
	// calls can say "content": null, as the API itself does. A user message
	// with images sends its parts instead ([]wirePart).
	Content          any            `json:"content"`
	ReasoningContent string         `json:"reasoning_content,omitempty"`
	ToolCalls        []wireToolCall `json:"tool_calls,omitempty"`
}

type wireToolCall struct {
	ID       string           `json:"id"`
	Type     string           `json:"type"` // always "function"
	Function wireCallFunction `json:"function"`
}

type wireCallFunction struct {
	Name string `json:"name"`
	// Arguments is the model's argument text, sent back byte for byte.
	Arguments string `json:"arguments"`
}

// emptyObject stands in for a tool's missing schema and for empty arguments:
// the API rejects an empty parameters value and an empty arguments string.
const emptyObject = "{}"

// Encode builds the streaming request body for req.
func (d dialect) Encode(req provider.Request) ([]byte, error) {
	var buf bytes.Buffer
	if err := d.WriteBody(&buf, req); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// WriteBody implements provider.BodyWriter: the body in one write, ended
// by a newline.
func (d dialect) WriteBody(w io.Writer, req provider.Request) error {
	var long provider.LongTexts
	body, err := d.wireBody(req, &long)
	if err != nil {
		return err
	}
	// Without HTML escaping, to keep '<', '>' and '&' as themselves: code is
	// full of them, and escaping would bloat every body. Raw schemas are
	// compacted (not reordered) by the encoder. Long texts are written a
	// chunk at a time (LongTexts), with the same bytes.
	if err := long.Encode(w, &body); err != nil {
		return fmt.Errorf("encode chat completions request: %w", err)
	}
	return nil
}

func (d dialect) wireBody(req provider.Request, long *provider.LongTexts) (wireRequest, error) {
	model := req.Model
	if model == "" {
		model = DefaultModel
	}
	withTools := len(req.Tools) > 0
	body := wireRequest{
		Model:         model,
		Messages:      make([]wireMessage, 0, len(req.Messages)),
		Stream:        true,
		StreamOptions: wireStreamOptions{IncludeUsage: true},
		MaxTokens:     max(req.MaxTokens, 0),
	}
	setThinking(&body, d.flavour, req.Thinking)
	for i := range req.Tools {
		t := &req.Tools[i]
		params := t.Schema
		if len(bytes.TrimSpace(params)) == 0 {
			params = json.RawMessage(emptyObject)
		}
		body.Tools = append(body.Tools, wireTool{
			Type:     "function",
			Function: wireFunction{Name: t.Name, Description: t.Description, Parameters: params},
		})
	}
	for i := range req.Messages {
		m, err := encodeMessage(&req.Messages[i], withTools)
		if err != nil {
			return wireRequest{}, fmt.Errorf("encode message %d: %w", i, err)
		}
		holdLongTexts(&m, long)
		body.Messages = append(body.Messages, m)
	}
	return body, nil
}

// holdLongTexts puts m's long texts apart, to be written a chunk at a
// time.
func holdLongTexts(m *wireMessage, long *provider.LongTexts) {
	switch c := m.Content.(type) {
	case *string:
		held := long.Hold(*c)
		m.Content = &held
	case []wirePart:
		for i := range c {
			c[i].Text = long.Hold(c[i].Text)
			if c[i].ImageURL != nil {
				c[i].ImageURL.URL = long.Hold(c[i].ImageURL.URL)
			}
		}
	}
	m.ReasoningContent = long.Hold(m.ReasoningContent)
	for i := range m.ToolCalls {
		m.ToolCalls[i].Function.Arguments = long.Hold(m.ToolCalls[i].Function.Arguments)
	}
}

// encodeMessage maps one neutral message. A system message anywhere in the
// history (a compaction summary, say) stays a system message: this dialect
// allows that, unlike the Messages dialect.
func encodeMessage(m *provider.Message, withTools bool) (wireMessage, error) {
	switch m.Role {
	case provider.RoleUser:
		if len(m.Images) > 0 {
			return wireMessage{Role: "user", Content: imageParts(m)}, nil
		}
		return wireMessage{Role: "user", Content: &m.Text}, nil
	case provider.RoleSystem:
		return wireMessage{Role: "system", Content: &m.Text}, nil
	case provider.RoleTool:
		if m.ToolCallID == "" {
			return wireMessage{}, fmt.Errorf("tool message without tool_call_id")
		}
		// Chat Completions has no error flag on a tool result; the text
		// itself tells the model the call failed.
		return wireMessage{Role: "tool", ToolCallID: m.ToolCallID, Content: &m.Text}, nil
	case provider.RoleAssistant:
		out := wireMessage{Role: "assistant", Content: &m.Text}
		// null rather than "" when the turn is only tool calls, as the API
		// sends it; a turn with neither text nor calls keeps "" because the
		// API rejects an assistant message with null content and no calls.
		if m.Text == "" && len(m.ToolCalls) > 0 {
			out.Content = nil
		}
		// With tools in the request, DeepSeek answers 400 unless every past
		// turn's reasoning comes back; without tools it is ignored, so it is
		// left out to keep the body (and the cached prefix) small.
		if withTools {
			out.ReasoningContent = m.Reasoning
		}
		for _, c := range m.ToolCalls {
			args := c.Arguments
			if args == "" {
				args = emptyObject
			}
			out.ToolCalls = append(out.ToolCalls, wireToolCall{
				ID:       c.ID,
				Type:     "function",
				Function: wireCallFunction{Name: c.Name, Arguments: args},
			})
		}
		return out, nil
	}
	return wireMessage{}, fmt.Errorf("unknown role %q", m.Role)
}

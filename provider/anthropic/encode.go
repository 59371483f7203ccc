package anthropic

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/agent-lsp/agent-lsp/provider"
)

// minThinkingBudget is the smallest budget_tokens the Messages API accepts.
const minThinkingBudget = 1024

// thinkingBudgets maps the neutral effort to budget_tokens. The empty effort
// means the server's default strength, which is "high" on DeepSeek.
var thinkingBudgets = map[string]int{
	"":       8192,
	"low":    2048,
	"medium": 4096,
	"high":   8192,
	"max":    16384,
}

// emptyObject is the input sent for a tool call whose stored arguments are
// not a JSON object (empty, truncated by max_tokens, or a bare value): the API
// requires an object, and the tool's own result already told the model what
// went wrong with that call.
var emptyObject = json.RawMessage(`{}`)

// emptySchema stands in for a tool without a schema: input_schema is required.
var emptySchema = json.RawMessage(`{"type":"object","properties":{}}`)

func encodeRequest(req provider.Request, f provider.Flavour) ([]byte, error) {
	var buf bytes.Buffer
	if err := writeRequest(&buf, req, f); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// writeRequest writes the request body to w, ended by a newline.
func writeRequest(w io.Writer, req provider.Request, f provider.Flavour) error {
	body, err := wireRequestOf(req, f)
	if err != nil {
		return err
	}
	// Long texts are written a chunk at a time, with the same bytes
	// (LongTexts). Without HTML escaping: code is full of <, > and &, and
	// sending them as \u003c would only make the body longer and harder to
	// read in recordings.
	var long provider.LongTexts
	holdLongTexts(body.System, &long)
	for i := range body.Messages {
		holdLongTexts(body.Messages[i].Content, &long)
	}
	if err := long.Encode(w, body); err != nil {
		return fmt.Errorf("anthropic: encode request: %w", err)
	}
	return nil
}

// holdLongTexts puts the blocks' long texts apart.
func holdLongTexts(blocks []wireBlock, long *provider.LongTexts) {
	for i := range blocks {
		b := &blocks[i]
		b.Text, b.Thinking, b.Content = long.Hold(b.Text), long.Hold(b.Thinking), long.Hold(b.Content)
		if b.Source != nil {
			b.Source.Data = long.Hold(b.Source.Data)
		}
	}
}

func wireRequestOf(req provider.Request, f provider.Flavour) (wireRequest, error) {
	if req.Model == "" {
		return wireRequest{}, errors.New("anthropic: request has no model")
	}
	maxTokens := req.MaxTokens
	if maxTokens == 0 {
		maxTokens = DefaultMaxTokens
	}
	if maxTokens < 0 {
		return wireRequest{}, fmt.Errorf("anthropic: max_tokens %d is negative", maxTokens)
	}
	thinking, err := thinkingParam(req.Thinking, maxTokens)
	if err != nil {
		return wireRequest{}, err
	}
	system, rest := splitLeadingSystem(req.Messages)
	messages, err := encodeMessages(rest, len(req.Messages)-len(rest), f.UnsignedThinking)
	if err != nil {
		return wireRequest{}, err
	}
	markNewestMessage(messages)
	if thinking.Type != "disabled" && !f.UnsignedThinking && unsignedToolLoop(messages) {
		thinking = wireThinking{Type: "disabled"}
	}
	tools, err := encodeTools(req.Tools)
	if err != nil {
		return wireRequest{}, err
	}

	body := wireRequest{
		Model:     req.Model,
		MaxTokens: maxTokens,
		Stream:    true,
		Messages:  messages,
		Tools:     tools,
	}
	if f.AnthropicThinking {
		body.Thinking = &thinking
	}
	if f.TemplateKwargs {
		body.ChatTemplateKwargs = &wireTemplateKwargs{EnableThinking: thinking.Type == "enabled"}
	}
	if system != "" {
		// An array of one text block rather than a plain string, because only
		// a block can carry the cache breakpoint.
		body.System = []wireBlock{{Type: blockText, Text: system, CacheControl: ephemeral}}
	}
	return body, nil
}

func thinkingParam(t provider.Thinking, maxTokens int) (wireThinking, error) {
	disabled := wireThinking{Type: "disabled"}
	if !t.Enabled {
		return disabled, nil
	}
	budget, ok := thinkingBudgets[t.Effort]
	if !ok {
		return wireThinking{}, fmt.Errorf("anthropic: unknown thinking effort %q (want low, medium, high or max)", t.Effort)
	}
	// budget_tokens must be at least 1024 and below max_tokens; with no room
	// for both, the request could not be sent with thinking at all.
	if maxTokens <= minThinkingBudget {
		return disabled, nil
	}
	budget = max(min(budget, maxTokens-1), minThinkingBudget)
	return wireThinking{Type: "enabled", BudgetTokens: budget}, nil
}

// splitLeadingSystem joins the leading run of system messages (the system
// prompt) and returns the messages after it. Only the leading run, and no
// summary in it: a later system message or a compaction summary (which sits
// right after the system prompt) is sent as user text by encodeMessages, and
// must not also change the top-level system text.
func splitLeadingSystem(msgs []provider.Message) (string, []provider.Message) {
	var parts []string
	i := 0
	for ; i < len(msgs) && msgs[i].Role == provider.RoleSystem && !msgs[i].Summary; i++ {
		if msgs[i].Text != "" {
			parts = append(parts, msgs[i].Text)
		}
	}
	return strings.Join(parts, "\n\n"), msgs[i:]
}

// encodeMessages turns the conversation after the system prompt into
// alternating user and assistant messages. base is the index of msgs[0] in
// the request, for error messages. unsigned: the server reads thinking
// without a signature (provider.Flavour.UnsignedThinking).
func encodeMessages(msgs []provider.Message, base int, unsigned bool) ([]wireMessage, error) {
	out := make([]wireMessage, 0, len(msgs))
	for i, m := range msgs {
		switch m.Role {
		case provider.RoleUser:
			// Images first, then the text that speaks of them: the order
			// the API's documentation recommends.
			for _, img := range m.Images {
				out = appendUserBlock(out, &wireBlock{Type: blockImage,
					Source: &wireImageSource{Type: "base64", MediaType: img.MediaType, Data: img.Base64()}})
			}
			out = appendUserBlock(out, textBlock(m.Text))
		case provider.RoleSystem:
			// The crack in the abstraction (see the package doc): Messages has
			// no mid-conversation system message, so it becomes user text.
			out = appendUserBlock(out, textBlock(m.Text))
		case provider.RoleTool:
			if m.ToolCallID == "" {
				return nil, fmt.Errorf("anthropic: message %d: tool result without tool_call_id", base+i)
			}
			out = appendUserBlock(out, &wireBlock{
				Type:      blockToolResult,
				ToolUseID: m.ToolCallID,
				Content:   m.Text,
				IsError:   m.IsError,
			})
		case provider.RoleAssistant:
			blocks := assistantBlocks(m, unsigned)
			if len(blocks) == 0 {
				// Nothing the API would accept (empty text blocks and empty
				// content arrays are both rejected), and nothing lost.
				continue
			}
			if n := len(out); n > 0 && out[n-1].Role == roleAssistant {
				out[n-1].Content = append(out[n-1].Content, blocks...)
				continue
			}
			out = append(out, wireMessage{Role: roleAssistant, Content: blocks})
		default:
			return nil, fmt.Errorf("anthropic: message %d: unknown role %q", base+i, m.Role)
		}
	}
	return out, nil
}

func textBlock(text string) *wireBlock {
	if text == "" {
		return nil
	}
	return &wireBlock{Type: blockText, Text: text}
}

// appendUserBlock adds b to the user message at the end of out, or opens a new
// one: the API requires the roles to alternate. Inside one user message every
// tool_result block must come before any text, so a tool result is inserted
// after the results already there rather than after a summary text.
func appendUserBlock(out []wireMessage, b *wireBlock) []wireMessage {
	if b == nil {
		return out
	}
	n := len(out)
	if n == 0 || out[n-1].Role != roleUser {
		return append(out, wireMessage{Role: roleUser, Content: []wireBlock{*b}})
	}
	content := out[n-1].Content
	if b.Type != blockToolResult {
		out[n-1].Content = append(content, *b)
		return out
	}
	at := 0
	for at < len(content) && content[at].Type == blockToolResult {
		at++
	}
	content = append(content, wireBlock{})
	copy(content[at+1:], content[at:])
	content[at] = *b
	out[n-1].Content = content
	return out
}

// assistantBlocks builds an assistant turn: the signed thinking block first
// (the API requires it there, and requires it back in turns with tool use),
// then the text, then the tool calls in order.
func assistantBlocks(m provider.Message, unsigned bool) []wireBlock {
	blocks := make([]wireBlock, 0, 2+len(m.ToolCalls))
	// An unsigned thinking block is rejected, so reasoning that has no
	// signature (from the other dialect) is dropped, except on a server
	// that signs nothing and reads the reasoning back as it is (llama.cpp).
	if m.Reasoning != "" && (m.ReasoningSignature != "" || unsigned) {
		blocks = append(blocks, wireBlock{Type: blockThinking, Thinking: m.Reasoning, Signature: m.ReasoningSignature})
	}
	if m.Text != "" {
		blocks = append(blocks, wireBlock{Type: blockText, Text: m.Text})
	}
	for _, c := range m.ToolCalls {
		blocks = append(blocks, wireBlock{Type: blockToolUse, ID: c.ID, Name: c.Name, Input: toolInput(c.Arguments)})
	}
	return blocks
}

// toolInput turns the stored argument text into tool_use.input, which must be
// a JSON object. Text that is not one becomes {} (see emptyObject).
func toolInput(args string) json.RawMessage {
	raw := bytes.TrimSpace([]byte(args))
	if len(raw) > 0 && raw[0] == '{' && json.Valid(raw) {
		return raw
	}
	return emptyObject
}

// markNewestMessage puts the moving cache breakpoint on the last content
// block of the newest message, so the next request can reuse the whole
// conversation so far. Thinking blocks cannot carry cache_control.
func markNewestMessage(msgs []wireMessage) {
	if len(msgs) == 0 {
		return
	}
	content := msgs[len(msgs)-1].Content
	for i := len(content) - 1; i >= 0; i-- {
		if content[i].Type != blockThinking {
			content[i].CacheControl = ephemeral
			return
		}
	}
}

// encodeTools lists the tools with their schemas embedded as given; the last
// one carries the breakpoint that caches the whole tool list.
func encodeTools(specs []provider.ToolSpec) ([]wireTool, error) {
	if len(specs) == 0 {
		return nil, nil
	}
	tools := make([]wireTool, len(specs))
	for i, s := range specs {
		schema := json.RawMessage(bytes.TrimSpace(s.Schema))
		switch {
		case len(schema) == 0:
			schema = emptySchema
		case !json.Valid(schema):
			return nil, fmt.Errorf("anthropic: tool %q: input schema is not valid JSON", s.Name)
		}
		tools[i] = wireTool{Name: s.Name, Description: s.Description, InputSchema: schema}
	}
	tools[len(tools)-1].CacheControl = ephemeral
	return tools, nil
}

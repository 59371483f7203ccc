package providertest

import "encoding/json"

// Chat Completions streaming, shaped like DeepSeek's: every chunk carries
// id/object/created/model; reasoning_content and content are mutually
// exclusive (the other one explicitly null while reasoning is present); a tool
// call's id, type and name come only on its first fragment; usage rides on
// the finish chunk (or, WithSeparateUsageChunk, on a "choices":[] chunk after
// it, as OpenAI sends it); the stream ends with the [DONE] sentinel.

type chatChunk struct {
	ID                string          `json:"id"`
	Object            string          `json:"object"`
	Created           int64           `json:"created"`
	Model             string          `json:"model"`
	SystemFingerprint string          `json:"system_fingerprint"`
	Choices           []chatChoice    `json:"choices"`
	Usage             json.RawMessage `json:"usage,omitempty"`
}

type chatChoice struct {
	Index        int       `json:"index"`
	Delta        chatDelta `json:"delta"`
	Logprobs     *struct{} `json:"logprobs"`
	FinishReason *string   `json:"finish_reason"`
}

type chatDelta struct {
	Role             string              `json:"role,omitempty"`
	Content          json.RawMessage     `json:"content,omitempty"`
	ReasoningContent json.RawMessage     `json:"reasoning_content,omitempty"`
	ToolCalls        []chatToolCallDelta `json:"tool_calls,omitempty"`
}

type chatToolCallDelta struct {
	Index    int               `json:"index"`
	ID       string            `json:"id,omitempty"`
	Type     string            `json:"type,omitempty"`
	Function chatFunctionDelta `json:"function"`
}

type chatFunctionDelta struct {
	Name      string `json:"name,omitempty"`
	Arguments string `json:"arguments"`
}

// deepSeekUsage is the usage object DeepSeek puts on the finish chunk.
type deepSeekUsage struct {
	PromptTokens          int               `json:"prompt_tokens"`
	CompletionTokens      int               `json:"completion_tokens"`
	TotalTokens           int               `json:"total_tokens"`
	PromptCacheHitTokens  int               `json:"prompt_cache_hit_tokens"`
	PromptCacheMissTokens int               `json:"prompt_cache_miss_tokens"`
	PromptTokensDetails   chatPromptDetails `json:"prompt_tokens_details"`
}

// openAIUsage is the usage object OpenAI sends on its separate usage chunk.
type openAIUsage struct {
	PromptTokens        int               `json:"prompt_tokens"`
	CompletionTokens    int               `json:"completion_tokens"`
	TotalTokens         int               `json:"total_tokens"`
	PromptTokensDetails chatPromptDetails `json:"prompt_tokens_details"`
}

type chatPromptDetails struct {
	CachedTokens int `json:"cached_tokens"`
}

var (
	jsonNull        = json.RawMessage("null")
	jsonEmptyString = json.RawMessage(`""`)
)

func jsonString(s string) json.RawMessage { return marshal(s) }

// chatStream builds the frames of one Chat Completions answer.
type chatStream struct {
	frag          *fragmenter
	id            string
	created       int64
	model         string
	separateUsage bool
	frames        [][]byte
	textEnd       int // the frame after the text's deltas
}

func (c *chatStream) chunk(choices []chatChoice, usage json.RawMessage) {
	if usage == nil && c.separateUsage {
		usage = jsonNull // OpenAI's chunks say "usage":null until the usage chunk
	}
	ch := chatChunk{
		ID: c.id, Object: "chat.completion.chunk", Created: c.created, Model: c.model,
		SystemFingerprint: "fp_providertest", Choices: choices, Usage: usage,
	}
	c.frames = append(c.frames, chatFrame(marshal(ch)))
}

func (c *chatStream) delta(d chatDelta) {
	c.chunk([]chatChoice{{Delta: d}}, nil)
}

// textFrame is the frame of one text delta, for generated text.
func (c *chatStream) textFrame(text string, reasoning bool) []byte {
	d := chatDelta{Content: jsonString(text)}
	if reasoning {
		d.ReasoningContent = jsonNull
	}
	c.delta(d)
	f := c.frames[len(c.frames)-1]
	c.frames = c.frames[:len(c.frames)-1]
	return f
}

func chatFrame(data []byte) []byte {
	f := make([]byte, 0, len(data)+8)
	f = append(f, "data: "...)
	f = append(f, data...)
	return append(f, "\n\n"...)
}

// chatFrames returns the frames of turn t (whose call ids are final) and the
// index of the first frame that belongs to the finish.
func chatFrames(t Turn, c *chatStream) (frames [][]byte, finishFrom int) {
	reasoning := t.Reasoning != ""
	if reasoning {
		c.delta(chatDelta{Role: "assistant", Content: jsonNull, ReasoningContent: jsonEmptyString})
	} else {
		c.delta(chatDelta{Role: "assistant", Content: jsonEmptyString})
	}
	for _, part := range c.frag.split(t.Reasoning) {
		c.delta(chatDelta{Content: jsonNull, ReasoningContent: jsonString(part)})
	}
	for _, part := range c.frag.split(t.Text) {
		d := chatDelta{Content: jsonString(part)}
		if reasoning {
			d.ReasoningContent = jsonNull
		}
		c.delta(d)
	}
	c.textEnd = len(c.frames)
	for i, call := range t.ToolCalls {
		c.delta(chatDelta{ToolCalls: []chatToolCallDelta{{
			Index: i, ID: call.ID, Type: "function",
			Function: chatFunctionDelta{Name: call.Name, Arguments: ""},
		}}})
		for _, part := range c.frag.split(call.Arguments) {
			c.delta(chatDelta{ToolCalls: []chatToolCallDelta{{
				Index: i, Function: chatFunctionDelta{Arguments: part},
			}}})
		}
	}

	finishFrom = len(c.frames)
	reason := t.chatFinishReason()
	finish := []chatChoice{{Delta: chatDelta{Content: jsonEmptyString}, FinishReason: &reason}}
	u := t.Usage
	total := u.PromptTokens + u.CompletionTokens
	if c.separateUsage {
		c.chunk(finish, nil)
		c.chunk([]chatChoice{}, marshal(openAIUsage{
			PromptTokens: u.PromptTokens, CompletionTokens: u.CompletionTokens, TotalTokens: total,
			PromptTokensDetails: chatPromptDetails{CachedTokens: u.CachedTokens},
		}))
	} else {
		c.chunk(finish, marshal(deepSeekUsage{
			PromptTokens: u.PromptTokens, CompletionTokens: u.CompletionTokens, TotalTokens: total,
			PromptCacheHitTokens: u.CachedTokens, PromptCacheMissTokens: u.PromptTokens - u.CachedTokens,
			PromptTokensDetails: chatPromptDetails{CachedTokens: u.CachedTokens},
		}))
	}
	c.frames = append(c.frames, []byte("data: [DONE]\n\n"))
	return c.frames, finishFrom
}

// chatErrorFrame is the in-stream error DeepSeek and OpenAI send when a
// stream fails after it started.
func chatErrorFrame() []byte {
	return chatFrame(marshal(chatError{Error: chatErrorDetail{
		Message: "The server had an error while processing your request. Sorry about that!",
		Type:    "server_error", Code: "server_error",
	}}))
}

package providertest

// Messages streaming, shaped like the Anthropic API's: `event:` lines, a ping
// after message_start (and now and then between blocks), a thinking block
// closed by a signature_delta, text and tool_use blocks, input_json_delta
// fragments opened by an empty one, message_delta with the stop reason and
// output tokens, message_stop, and no sentinel: the stream ends when the
// connection closes.

type messageStartEvent struct {
	Type    string           `json:"type"`
	Message messageStartBody `json:"message"`
}

type messageStartBody struct {
	ID           string       `json:"id"`
	Type         string       `json:"type"`
	Role         string       `json:"role"`
	Content      []struct{}   `json:"content"`
	Model        string       `json:"model"`
	StopReason   *string      `json:"stop_reason"`
	StopSequence *string      `json:"stop_sequence"`
	Usage        messageUsage `json:"usage"`
}

// messageUsage: input_tokens counts only the uncached input; the total input
// is input_tokens + cache_read_input_tokens + cache_creation_input_tokens.
type messageUsage struct {
	InputTokens              int `json:"input_tokens"`
	CacheCreationInputTokens int `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int `json:"cache_read_input_tokens"`
	OutputTokens             int `json:"output_tokens"`
}

type blockStartEvent struct {
	Type         string `json:"type"`
	Index        int    `json:"index"`
	ContentBlock any    `json:"content_block"`
}

type thinkingBlock struct {
	Type     string `json:"type"`
	Thinking string `json:"thinking"`
}

type textBlock struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

type toolUseBlock struct {
	Type  string   `json:"type"`
	ID    string   `json:"id"`
	Name  string   `json:"name"`
	Input struct{} `json:"input"`
}

type blockDeltaEvent struct {
	Type  string `json:"type"`
	Index int    `json:"index"`
	Delta any    `json:"delta"`
}

type thinkingDelta struct {
	Type     string `json:"type"`
	Thinking string `json:"thinking"`
}

type signatureDelta struct {
	Type      string `json:"type"`
	Signature string `json:"signature"`
}

type textDelta struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

type inputJSONDelta struct {
	Type        string `json:"type"`
	PartialJSON string `json:"partial_json"`
}

type indexEvent struct {
	Type  string `json:"type"`
	Index int    `json:"index"`
}

type typeEvent struct {
	Type string `json:"type"`
}

type messageDeltaEvent struct {
	Type  string            `json:"type"`
	Delta messageDeltaStop  `json:"delta"`
	Usage messageDeltaUsage `json:"usage"`
}

type messageDeltaStop struct {
	StopReason   string  `json:"stop_reason"`
	StopSequence *string `json:"stop_sequence"`
}

type messageDeltaUsage struct {
	OutputTokens int `json:"output_tokens"`
}

func messagesFrame(event string, v any) []byte {
	data := marshal(v)
	f := make([]byte, 0, len(event)+len(data)+16)
	f = append(f, "event: "...)
	f = append(f, event...)
	f = append(f, "\ndata: "...)
	f = append(f, data...)
	return append(f, "\n\n"...)
}

// messagesStream builds the frames of one Messages answer.
type messagesStream struct {
	frag      *fragmenter
	id        string
	model     string
	signature string // of the thinking block, when the turn has reasoning
	frames    [][]byte
	blocks    int
	textEnd   int // the text block's content_block_stop frame
	textIndex int // the text block's index
}

func (m *messagesStream) add(event string, v any) {
	m.frames = append(m.frames, messagesFrame(event, v))
}

// textFrame is the frame of one delta of the text block, for generated text.
func (m *messagesStream) textFrame(text string) []byte {
	return messagesFrame("content_block_delta", blockDeltaEvent{Type: "content_block_delta",
		Index: m.textIndex, Delta: textDelta{Type: "text_delta", Text: text}})
}

func (m *messagesStream) ping() { m.add("ping", typeEvent{Type: "ping"}) }

// block writes one content block: start, deltas, stop, and sometimes a ping
// before it (not before the first: that one follows message_start already).
func (m *messagesStream) block(start any, deltas []any) {
	if m.blocks > 0 && m.frag.chance(3) {
		m.ping()
	}
	i := m.blocks
	m.blocks++
	m.add("content_block_start", blockStartEvent{Type: "content_block_start", Index: i, ContentBlock: start})
	for _, d := range deltas {
		m.add("content_block_delta", blockDeltaEvent{Type: "content_block_delta", Index: i, Delta: d})
	}
	m.add("content_block_stop", indexEvent{Type: "content_block_stop", Index: i})
}

// messagesFrames returns the frames of turn t (whose call ids are final) and
// the index of the first frame that belongs to the finish.
func messagesFrames(t Turn, m *messagesStream) (frames [][]byte, finishFrom int) {
	u := t.Usage
	m.add("message_start", messageStartEvent{Type: "message_start", Message: messageStartBody{
		ID: m.id, Type: "message", Role: "assistant", Content: []struct{}{}, Model: m.model,
		Usage: messageUsage{
			InputTokens:          u.PromptTokens - u.CachedTokens,
			CacheReadInputTokens: u.CachedTokens,
			OutputTokens:         1,
		},
	}})
	m.ping()
	if t.Reasoning != "" {
		var deltas []any
		for _, part := range m.frag.split(t.Reasoning) {
			deltas = append(deltas, thinkingDelta{Type: "thinking_delta", Thinking: part})
		}
		deltas = append(deltas, signatureDelta{Type: "signature_delta", Signature: m.signature})
		m.block(thinkingBlock{Type: "thinking"}, deltas)
	}
	if t.Text != "" {
		var deltas []any
		for _, part := range m.frag.split(t.Text) {
			deltas = append(deltas, textDelta{Type: "text_delta", Text: part})
		}
		m.block(textBlock{Type: "text"}, deltas)
		m.textEnd, m.textIndex = len(m.frames)-1, m.blocks-1
	}
	for _, call := range t.ToolCalls {
		deltas := []any{inputJSONDelta{Type: "input_json_delta"}}
		for _, part := range m.frag.split(call.Arguments) {
			deltas = append(deltas, inputJSONDelta{Type: "input_json_delta", PartialJSON: part})
		}
		m.block(toolUseBlock{Type: "tool_use", ID: call.ID, Name: call.Name}, deltas)
	}
	finishFrom = len(m.frames)
	m.add("message_delta", messageDeltaEvent{
		Type:  "message_delta",
		Delta: messageDeltaStop{StopReason: t.messagesStopReason()},
		Usage: messageDeltaUsage{OutputTokens: u.CompletionTokens},
	})
	m.add("message_stop", typeEvent{Type: "message_stop"})
	return m.frames, finishFrom
}

// messagesErrorFrame is the in-stream error the API sends when a stream fails
// after it started.
func messagesErrorFrame() []byte {
	return messagesFrame("error", messagesError{
		Type:  "error",
		Error: messagesErrorDetail{Type: "overloaded_error", Message: "Overloaded"},
	})
}

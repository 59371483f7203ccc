package providertest

// llama.cpp's Messages stream layout. Its server (tools/server, the
// /v1/messages route) streams the Anthropic events from its generic diffs,
// which gives a layout the API itself never sends:
//
//   - blocks are opened as their content first appears and all closed at the
//     end, so text (index 1) and tool_use (index 2…) blocks start while the
//     thinking block (index 0) is still open;
//   - the thinking block gets a signature_delta with an empty signature just
//     before it closes, after the other blocks' content;
//   - tool_use content_block_start has no "input" field, the arguments come
//     only as input_json_delta fragments (none at all for arguments that are
//     empty), without the API's opening empty fragment;
//   - no ping.
//
// The fake still signs its thinking (a signature_delta with its real
// signature right after the thinking text) so the strict replay check of the
// next request keeps working: a client must keep that one and ignore the late
// empty one.

// MessagesLayout is the order and shape of the Messages stream events.
type MessagesLayout int

const (
	// LayoutAnthropic is the API's layout (the default): one block at a
	// time, start, deltas, stop.
	LayoutAnthropic MessagesLayout = iota
	// LayoutLlamaCpp is llama.cpp's layout described above.
	LayoutLlamaCpp
)

// WithMessagesLayout makes Messages streams follow layout.
func WithMessagesLayout(layout MessagesLayout) Option {
	return func(s *Server) { s.messagesLayout = layout }
}

// frames builds turn t's Messages frames in layout l.
func (l MessagesLayout) frames(t Turn, m *messagesStream) ([][]byte, int) {
	if l == LayoutLlamaCpp {
		return llamaCppFrames(t, m)
	}
	return messagesFrames(t, m)
}

// toolUseStartNoInput is llama.cpp's tool_use opening: no "input" at all.
type toolUseStartNoInput struct {
	Type string `json:"type"`
	ID   string `json:"id"`
	Name string `json:"name"`
}

func (m *messagesStream) start(i int, block any) {
	m.add("content_block_start", blockStartEvent{Type: "content_block_start", Index: i, ContentBlock: block})
}

func (m *messagesStream) delta(i int, d any) {
	m.add("content_block_delta", blockDeltaEvent{Type: "content_block_delta", Index: i, Delta: d})
}

func llamaCppFrames(t Turn, m *messagesStream) (frames [][]byte, finishFrom int) {
	u := t.Usage
	m.add("message_start", messageStartEvent{Type: "message_start", Message: messageStartBody{
		ID: m.id, Type: "message", Role: "assistant", Content: []struct{}{}, Model: m.model,
		Usage: messageUsage{InputTokens: u.PromptTokens - u.CachedTokens, CacheReadInputTokens: u.CachedTokens},
	}})
	// Every block stays open until the end; m.blocks counts them.
	thinking := -1
	if t.Reasoning != "" {
		thinking = m.blocks
		m.blocks++
		m.start(thinking, thinkingBlock{Type: "thinking"})
		for _, part := range m.frag.split(t.Reasoning) {
			m.delta(thinking, thinkingDelta{Type: "thinking_delta", Thinking: part})
		}
		if m.signature != "" {
			m.delta(thinking, signatureDelta{Type: "signature_delta", Signature: m.signature})
		}
	}
	if t.Text != "" {
		i := m.blocks
		m.blocks++
		m.start(i, textBlock{Type: "text"})
		for _, part := range m.frag.split(t.Text) {
			m.delta(i, textDelta{Type: "text_delta", Text: part})
		}
	}
	for _, call := range t.ToolCalls {
		i := m.blocks
		m.blocks++
		m.start(i, toolUseStartNoInput{Type: "tool_use", ID: call.ID, Name: call.Name})
		for _, part := range m.frag.split(call.Arguments) {
			m.delta(i, inputJSONDelta{Type: "input_json_delta", PartialJSON: part})
		}
	}
	if thinking >= 0 {
		m.delta(thinking, signatureDelta{Type: "signature_delta", Signature: ""})
	}
	for i := range m.blocks {
		m.add("content_block_stop", indexEvent{Type: "content_block_stop", Index: i})
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

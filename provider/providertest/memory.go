package providertest

// memory remembers what the server itself produced, so that the validators
// can demand the round-trips the real services demand: DeepSeek wants every
// past assistant turn's reasoning_content back when the request has tools;
// Messages wants the signed thinking block back in front of its tool_use
// blocks. Past turns are recognised by their tool call ids, or (for turns
// without calls) by their exact text.
type memory struct {
	byCallID   map[string]*producedTurn
	byText     map[string][]*producedTurn // turns without calls only
	signatures map[string]string          // signature → the thinking it signs
	// unsigned: the server signs no thinking and reads thinking blocks
	// sent back as plain reasoning, whatever their signature (llama.cpp).
	unsigned bool
	// noVision: the model takes no image (WithoutVision).
	noVision bool
}

type producedTurn struct {
	text      string
	reasoning string
	signature string // Messages only
	callIDs   []string
}

func newMemory() *memory {
	return &memory{
		byCallID:   map[string]*producedTurn{},
		byText:     map[string][]*producedTurn{},
		signatures: map[string]string{},
	}
}

func (m *memory) remember(p *producedTurn) {
	for _, id := range p.callIDs {
		m.byCallID[id] = p
	}
	if len(p.callIDs) == 0 && p.text != "" {
		m.byText[p.text] = append(m.byText[p.text], p)
	}
	if p.signature != "" {
		m.signatures[p.signature] = p.reasoning
	}
}

// reasoningFor returns the reasoning texts an assistant message must carry:
// the one of the turn its first call id belongs to, or, without calls, those
// of the turns that produced exactly this text. Empty when the server did not
// produce the message with reasoning.
func (m *memory) reasoningFor(callIDs []string, text string) []string {
	if len(callIDs) > 0 {
		if p := m.byCallID[callIDs[0]]; p != nil && p.reasoning != "" {
			return []string{p.reasoning}
		}
		return nil
	}
	var out []string
	for _, p := range m.byText[text] {
		if p.reasoning != "" {
			out = append(out, p.reasoning)
		}
	}
	return out
}

// turnOfCall returns the produced turn a tool call id belongs to, or nil.
func (m *memory) turnOfCall(id string) *producedTurn { return m.byCallID[id] }

// signed reports whether signature is one the server issued for thinking.
func (m *memory) signed(signature, thinking string) bool {
	if m.unsigned {
		return true
	}
	t, ok := m.signatures[signature]
	return ok && t == thinking
}

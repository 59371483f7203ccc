package anthropic

import (
	"bytes"
	"encoding/json"
)

// The stream frames as structs, decoded with encoding/json into one value the
// decoder reuses. The type names are small enums with their own UnmarshalJSON
// so the hot path (one content_block_delta per token) allocates only the
// delta's text, which the emitted Event keeps anyway.

// wireFrame is the union of every frame kind's fields.
type wireFrame struct {
	Type         frameType      `json:"type"`
	Index        int            `json:"index"`
	Message      wireMessageHdr `json:"message"`
	ContentBlock wireBlockStart `json:"content_block"`
	Delta        wireDelta      `json:"delta"`
	Usage        wireUsage      `json:"usage"`
	Error        wireError      `json:"error"`
}

type wireMessageHdr struct {
	Usage wireUsage `json:"usage"`
}

type wireBlockStart struct {
	Type      blockType       `json:"type"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	Text      string          `json:"text"`
	Thinking  string          `json:"thinking"`
	Signature string          `json:"signature"`
}

// wireDelta serves both content_block_delta (Type and one payload field) and
// message_delta (StopReason).
type wireDelta struct {
	Type        deltaType `json:"type"`
	Text        string    `json:"text"`
	Thinking    string    `json:"thinking"`
	Signature   string    `json:"signature"`
	PartialJSON string    `json:"partial_json"`
	StopReason  string    `json:"stop_reason"`
}

// wireUsage keeps which counters a frame carried: message_delta's counters
// replace message_start's only where present.
type wireUsage struct {
	InputTokens              optInt `json:"input_tokens"`
	OutputTokens             optInt `json:"output_tokens"`
	CacheReadInputTokens     optInt `json:"cache_read_input_tokens"`
	CacheCreationInputTokens optInt `json:"cache_creation_input_tokens"`
}

type wireError struct {
	Type    string `json:"type"`
	Message string `json:"message"`
}

// optInt is an integer that remembers whether it was present (null counts as
// absent).
type optInt struct {
	value int
	set   bool
}

func (o *optInt) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		return nil
	}
	n, ok := parseUint(b)
	if !ok {
		// Rare shapes (negative, exponent): let encoding/json judge them.
		if err := json.Unmarshal(b, &n); err != nil {
			return err
		}
	}
	o.value, o.set = n, true
	return nil
}

// parseUint parses plain decimal digits without allocating.
func parseUint(b []byte) (int, bool) {
	if len(b) == 0 || len(b) > 18 {
		return 0, false
	}
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

type frameType uint8

const (
	frameUnknown frameType = iota
	frameMessageStart
	frameContentBlockStart
	frameContentBlockDelta
	frameContentBlockStop
	frameMessageDelta
	frameMessageStop
	framePing
	frameError
)

var frameTypes = []string{
	frameMessageStart:      "message_start",
	frameContentBlockStart: "content_block_start",
	frameContentBlockDelta: "content_block_delta",
	frameContentBlockStop:  "content_block_stop",
	frameMessageDelta:      "message_delta",
	frameMessageStop:       "message_stop",
	framePing:              "ping",
	frameError:             "error",
}

func (t *frameType) UnmarshalJSON(b []byte) error {
	i, err := lookupName(b, frameTypes)
	*t = frameType(i)
	return err
}

type blockType uint8

const (
	blockUnknown blockType = iota
	blockStartText
	blockStartThinking
	blockStartToolUse
	blockStartRedactedThinking
)

var blockTypes = []string{
	blockStartText:             "text",
	blockStartThinking:         "thinking",
	blockStartToolUse:          "tool_use",
	blockStartRedactedThinking: "redacted_thinking",
}

func (t *blockType) UnmarshalJSON(b []byte) error {
	i, err := lookupName(b, blockTypes)
	*t = blockType(i)
	return err
}

type deltaType uint8

const (
	deltaUnknown deltaType = iota
	deltaText
	deltaThinking
	deltaSignature
	deltaInputJSON
)

var deltaTypes = []string{
	deltaText:      "text_delta",
	deltaThinking:  "thinking_delta",
	deltaSignature: "signature_delta",
	deltaInputJSON: "input_json_delta",
}

func (t *deltaType) UnmarshalJSON(b []byte) error {
	i, err := lookupName(b, deltaTypes)
	*t = deltaType(i)
	return err
}

// lookupName returns the index of the JSON string b in names, 0 for a name
// not listed (or null): unknown kinds are skipped, for forward compatibility.
func lookupName(b []byte, names []string) (int, error) {
	if string(b) == "null" {
		return 0, nil
	}
	if len(b) < 2 || b[0] != '"' || b[len(b)-1] != '"' {
		var s string // not a string: let encoding/json say why
		return 0, json.Unmarshal(b, &s)
	}
	name := b[1 : len(b)-1]
	if bytes.IndexByte(name, '\\') >= 0 {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return 0, err
		}
		name = []byte(s)
	}
	for i, n := range names {
		if i > 0 && string(name) == n {
			return i, nil
		}
	}
	return 0, nil
}

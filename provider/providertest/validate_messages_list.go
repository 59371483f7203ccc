package providertest

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
)

// messagesState is what one message needs to know about the one before it.
type messagesState struct {
	prevRole     string
	prevToolUses []string // tool_use ids of the previous (assistant) message
	prevIndex    int
	seenToolUse  map[string]bool
}

func validateMessagesList(messages []json.RawMessage, thinking bool, mem *memory) *rejection {
	st := &messagesState{seenToolUse: map[string]bool{}}
	for i, raw := range messages {
		msg, ok := decodeObject(raw)
		if !ok {
			return badRequest("messages.%d: Input should be a valid dictionary", i)
		}
		role, _ := msg.str("role")
		switch {
		case role == "system":
			return badRequest("messages.%d.role: Unexpected role \"system\". The Messages API accepts a top-level `system` parameter, not \"system\" as an input message role.", i)
		case role != "user" && role != "assistant":
			return badRequest("messages.%d.role: Input should be 'user' or 'assistant'", i)
		case i == 0 && role != "user":
			return badRequest("messages: first message must use the \"user\" role")
		case role == st.prevRole:
			return badRequest("messages: roles must alternate between \"user\" and \"assistant\", but found multiple %q roles in a row (messages.%d)", role, i)
		}
		last := i == len(messages)-1
		blocks, rej := contentBlocks(msg, i, role == "assistant" && last)
		if rej != nil {
			return rej
		}
		if rej := checkMessagesImages(blocks, i, role, mem); rej != nil {
			return rej
		}
		if role == "user" {
			if rej := validateUserBlocks(blocks, i, st); rej != nil {
				return rej
			}
			st.prevToolUses = nil
		} else {
			ids, rej := validateAssistantBlocks(blocks, i, thinking, st, mem)
			if rej != nil {
				return rej
			}
			st.prevToolUses = ids
		}
		st.prevRole, st.prevIndex = role, i
	}
	if len(st.prevToolUses) > 0 {
		return unansweredToolUse(st.prevIndex, st.prevToolUses)
	}
	return nil
}

func unansweredToolUse(index int, ids []string) *rejection {
	return badRequest("messages.%d: `tool_use` ids were found without `tool_result` blocks immediately after: %s. Each `tool_use` block must have a corresponding `tool_result` block in the next message.", index, strings.Join(ids, ", "))
}

// contentBlocks returns a message's content as blocks (a string content is
// one text block). Empty content is refused except for a final assistant
// message (a prefill).
func contentBlocks(msg object, i int, finalAssistant bool) ([]object, *rejection) {
	empty := badRequest("messages.%d: all messages must have non-empty content except for the optional final assistant message", i)
	switch k := msg.kind("content"); k {
	case kindString:
		if s, _ := msg.str("content"); s == "" {
			if !finalAssistant {
				return nil, empty
			}
			return nil, nil
		}
		return []object{{"type": json.RawMessage(`"text"`), "text": msg["content"]}}, nil
	case kindArray:
		raws, _ := decodeArray(msg["content"])
		if len(raws) == 0 && !finalAssistant {
			return nil, empty
		}
		blocks := make([]object, len(raws))
		for j, raw := range raws {
			b, ok := decodeObject(raw)
			if !ok {
				return nil, badRequest("messages.%d.content.%d: Input should be a valid dictionary", i, j)
			}
			blocks[j] = b
		}
		return blocks, nil
	case kindAbsent:
		return nil, badRequest("messages.%d.content: Field required", i)
	default:
		return nil, badRequest("messages.%d.content: Input should be a valid string or list, got %s", i, k)
	}
}

func validateUserBlocks(blocks []object, i int, st *messagesState) *rejection {
	answered := map[string]bool{}
	for j, b := range blocks {
		at := "messages." + strconv.Itoa(i) + ".content." + strconv.Itoa(j)
		typ, _ := b.str("type")
		switch typ {
		case "text":
			if rej := checkTextBlock(b, at); rej != nil {
				return rej
			}
		case "image", "document":
			if b.kind("source") != kindObject {
				return badRequest("%s.source: Field required", at)
			}
		case "tool_result":
			id, ok := b.str("tool_use_id")
			if !ok || id == "" {
				return badRequest("%s.tool_use_id: Field required", at)
			}
			if !slices.Contains(st.prevToolUses, id) {
				return badRequest("%s: unexpected `tool_use_id` found in `tool_result` blocks: %s. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.", at, id)
			}
			if answered[id] {
				return badRequest("%s: duplicate `tool_result` for tool_use_id %s", at, id)
			}
			answered[id] = true
			if rej := checkToolResultContent(b, at); rej != nil {
				return rej
			}
		case "tool_use", "thinking", "redacted_thinking":
			return badRequest("%s.type: %q blocks are only allowed in assistant messages", at, typ)
		default:
			return badRequest("%s.type: unknown content block type %q", at, typ)
		}
	}
	var missing []string
	for _, id := range st.prevToolUses {
		if !answered[id] {
			missing = append(missing, id)
		}
	}
	if len(missing) > 0 {
		return unansweredToolUse(st.prevIndex, missing)
	}
	return nil
}

func checkToolResultContent(b object, at string) *rejection {
	if k := b.kind("is_error"); k != kindAbsent && k != kindBool {
		return badRequest("%s.is_error: Input should be a valid boolean", at)
	}
	switch k := b.kind("content"); k {
	case kindAbsent, kindString:
		return nil
	case kindArray:
		raws, _ := decodeArray(b["content"])
		for n, raw := range raws {
			inner, ok := decodeObject(raw)
			typ, _ := inner.str("type")
			switch {
			case !ok:
				return badRequest("%s.content.%d: Input should be a valid dictionary", at, n)
			case typ == "text":
				if rej := checkTextBlock(inner, at+".content."+strconv.Itoa(n)); rej != nil {
					return rej
				}
			case typ == "image" || typ == "document":
			default:
				return badRequest("%s.content.%d.type: %q is not allowed in a tool_result", at, n, typ)
			}
		}
		return nil
	default:
		return badRequest("%s.content: Input should be a valid string or list, got %s", at, k)
	}
}

func validateAssistantBlocks(blocks []object, i int, thinking bool, st *messagesState, mem *memory) ([]string, *rejection) {
	var ids []string
	for j, b := range blocks {
		at := "messages." + strconv.Itoa(i) + ".content." + strconv.Itoa(j)
		typ, _ := b.str("type")
		switch typ {
		case "text":
			if rej := checkTextBlock(b, at); rej != nil {
				return nil, rej
			}
		case "thinking":
			text, okText := b.str("thinking")
			sig, okSig := b.str("signature")
			if !okText || (!okSig && !mem.unsigned) {
				return nil, badRequest("%s: a thinking block needs `thinking` and `signature` strings", at)
			}
			if !mem.signed(sig, text) {
				return nil, badRequest("%s: Invalid `signature` in `thinking` block", at)
			}
		case "redacted_thinking":
			if b.kind("data") != kindString {
				return nil, badRequest("%s.data: Field required", at)
			}
		case "tool_use":
			id, _ := b.str("id")
			if !validToolName(id, 0) {
				return nil, badRequest("%s.id: String should match pattern '^[a-zA-Z0-9_-]+$'", at)
			}
			if name, ok := b.str("name"); !ok || name == "" {
				return nil, badRequest("%s.name: Field required", at)
			}
			if k := b.kind("input"); k != kindObject {
				return nil, badRequest("%s.tool_use.input: Input should be a valid dictionary, got %s", at, k)
			}
			if st.seenToolUse[id] {
				return nil, badRequest("%s: `tool_use` ids must be unique (%s)", at, id)
			}
			st.seenToolUse[id] = true
			ids = append(ids, id)
		case "tool_result":
			return nil, badRequest("%s.type: \"tool_result\" blocks are only allowed in user messages", at)
		default:
			return nil, badRequest("%s.type: unknown content block type %q", at, typ)
		}
	}
	if thinking && len(ids) > 0 {
		if rej := checkThinkingRoundTrip(blocks, ids, i, mem); rej != nil {
			return nil, rej
		}
	}
	return ids, nil
}

// checkThinkingRoundTrip: with thinking on, an assistant message with tool_use
// that this server produced with thinking must start with that very thinking
// block (its signature proves it).
func checkThinkingRoundTrip(blocks []object, ids []string, i int, mem *memory) *rejection {
	p := mem.turnOfCall(ids[0])
	if p == nil || p.signature == "" {
		return nil
	}
	first, _ := blocks[0].str("type")
	if first != "thinking" && first != "redacted_thinking" {
		return badRequest("messages.%d.content.0.type: Expected `thinking` or `redacted_thinking`, but found `%s`. When `thinking` is enabled, a final `assistant` message must start with a thinking block (preceeding the lastmost set of `tool_use` and `tool_result` blocks).", i, first)
	}
	if sig, _ := blocks[0].str("signature"); sig != p.signature {
		return badRequest("messages.%d.content.0: the thinking block is not the one this turn was produced with (signature differs)", i)
	}
	return nil
}

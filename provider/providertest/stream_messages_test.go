package providertest

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/provider"
)

func TestMessagesStreamGolden(t *testing.T) {
	s := NewServer(t, Script{richTurn()}, WithSeed(7))
	rep := postMessages(t, s, messagesBody(obj{"role": "user", "content": "weather?"}))
	if rep.status != 200 || rep.err != nil {
		t.Fatalf("status %d, err %v: %s", rep.status, rep.err, rep.body)
	}
	golden(t, "messages.sse", rep.body)
}

// messagesBlock is a content block reassembled from its events.
type messagesBlock struct {
	start     map[string]any
	deltas    strings.Builder
	signature string
	stopped   bool
}

func TestMessagesStreamShape(t *testing.T) {
	turn := richTurn()
	s := NewServer(t, Script{turn}, WithSeed(5))
	rep := postMessages(t, s, messagesBody(obj{"role": "user", "content": "weather?"}))
	if rep.status != 200 || rep.err != nil {
		t.Fatalf("status %d, err %v: %s", rep.status, rep.err, rep.body)
	}
	events := decodeFrames(t, rep.frames)
	for i, f := range rep.frames {
		if f.event == "" || f.event != events[i]["type"] {
			t.Fatalf("frame %d: event %q but data type %v", i, f.event, events[i]["type"])
		}
		if f.data == "[DONE]" {
			t.Fatalf("Messages streams have no [DONE]")
		}
	}
	if rep.frames[0].event != "message_start" || rep.frames[1].event != "ping" {
		t.Fatalf("stream opens with %s, %s; want message_start, ping", rep.frames[0].event, rep.frames[1].event)
	}
	start := events[0]["message"].(map[string]any)
	if start["role"] != "assistant" || start["type"] != "message" || start["model"] != "deepseek-flash" ||
		!strings.HasPrefix(start["id"].(string), "msg_") || len(start["content"].([]any)) != 0 ||
		start["stop_reason"] != nil {
		t.Errorf("message_start message %v", start)
	}
	checkUsage(t, start["usage"], map[string]float64{
		"input_tokens": 199, "cache_read_input_tokens": 1408, "cache_creation_input_tokens": 0, "output_tokens": 1,
	})

	var blocks []*messagesBlock
	n := len(events)
	if rep.frames[n-2].event != "message_delta" || rep.frames[n-1].event != "message_stop" {
		t.Fatalf("stream ends with %s, %s", rep.frames[n-2].event, rep.frames[n-1].event)
	}
	for i, e := range events[2 : n-2] {
		idx, _ := e["index"].(float64)
		switch e["type"] {
		case "ping":
		case "content_block_start":
			if int(idx) != len(blocks) {
				t.Fatalf("block %v starts out of order", idx)
			}
			if len(blocks) > 0 && !blocks[len(blocks)-1].stopped {
				t.Fatalf("block %v starts before %d stopped", idx, len(blocks)-1)
			}
			blocks = append(blocks, &messagesBlock{start: e["content_block"].(map[string]any)})
		case "content_block_delta":
			b := blocks[int(idx)]
			if b.stopped || b.signature != "" {
				t.Fatalf("event %d: delta after the block closed or after its signature", i)
			}
			d := e["delta"].(map[string]any)
			switch d["type"] {
			case "thinking_delta":
				b.deltas.WriteString(d["thinking"].(string))
			case "signature_delta":
				b.signature = d["signature"].(string)
			case "text_delta":
				b.deltas.WriteString(d["text"].(string))
			case "input_json_delta":
				b.deltas.WriteString(d["partial_json"].(string))
			default:
				t.Fatalf("unknown delta %v", d)
			}
		case "content_block_stop":
			blocks[int(idx)].stopped = true
		default:
			t.Fatalf("unexpected event %v", e)
		}
	}
	if len(blocks) != 4 {
		t.Fatalf("%d blocks, want thinking, text, 2 tool_use", len(blocks))
	}
	if !equalJSON(blocks[0].start, map[string]any{"type": "thinking", "thinking": ""}) ||
		blocks[0].deltas.String() != turn.Reasoning || blocks[0].signature == "" {
		t.Errorf("thinking block %v %q sig %q", blocks[0].start, blocks[0].deltas.String(), blocks[0].signature)
	}
	if !equalJSON(blocks[1].start, map[string]any{"type": "text", "text": ""}) || blocks[1].deltas.String() != turn.Text {
		t.Errorf("text block %v %q", blocks[1].start, blocks[1].deltas.String())
	}
	for i, b := range blocks[2:] {
		call := turn.ToolCalls[i]
		if b.start["type"] != "tool_use" || b.start["name"] != call.Name || !equalJSON(b.start["input"], map[string]any{}) {
			t.Errorf("tool_use start %v", b.start)
		}
		if b.deltas.String() != call.Arguments {
			t.Errorf("tool_use %d input %q, want %q", i, b.deltas.String(), call.Arguments)
		}
		if !b.stopped {
			t.Errorf("block %d never stopped", i+2)
		}
	}
	if id := blocks[2].start["id"].(string); !strings.HasPrefix(id, "toolu_") {
		t.Errorf("generated id %q", id)
	}
	if blocks[3].start["id"] != "call_01_scripted" {
		t.Errorf("scripted id came back as %v", blocks[3].start["id"])
	}
	md := events[n-2]
	if !equalJSON(md["delta"], map[string]any{"stop_reason": "tool_use", "stop_sequence": nil}) {
		t.Errorf("message_delta delta %v", md["delta"])
	}
	if !equalJSON(md["usage"], map[string]any{"output_tokens": 92}) {
		t.Errorf("message_delta usage %v", md["usage"])
	}
}

func TestMessagesStopReasons(t *testing.T) {
	for _, tc := range []struct {
		turn Turn
		want string
	}{
		{Turn{Text: "a"}, "end_turn"},
		{Turn{ToolCalls: []Call{{Name: "f", Arguments: "{}"}}}, "tool_use"},
		{Turn{Text: "a", Stop: provider.StopMaxTokens}, "max_tokens"},
		{Turn{Text: "a", WireStop: "stop_sequence"}, "stop_sequence"},
	} {
		s := NewServer(t, Script{tc.turn}, WithSeed(1))
		events := decodeFrames(t, postMessages(t, s, messagesBody(obj{"role": "user", "content": "x"})).frames)
		if got := path(events[len(events)-2], "delta", "stop_reason"); got != tc.want {
			t.Errorf("%+v: stop_reason %v, want %s", tc.turn, got, tc.want)
		}
	}
}

// TestMessagesPingsBetweenBlocks: over many seeds, some streams carry a ping
// between blocks and some do not, so clients meet both.
func TestMessagesPingsBetweenBlocks(t *testing.T) {
	with, without := 0, 0
	for seed := int64(0); seed < 30; seed++ {
		frag := newFragmenter(seed, 0, 0)
		frames, _ := messagesFrames(richTurn(), &messagesStream{frag: frag, id: "msg_x", model: "m", signature: "sig"})
		pings := 0
		for _, f := range frames {
			if strings.HasPrefix(string(f), "event: ping\n") {
				pings++
			}
		}
		if pings > 1 {
			with++
		} else {
			without++
		}
		var first map[string]any
		data := strings.TrimPrefix(strings.SplitN(string(frames[1]), "\n", 3)[1], "data: ")
		if err := json.Unmarshal([]byte(data), &first); err != nil || first["type"] != "ping" {
			t.Fatalf("seed %d: second frame is not a ping: %s", seed, frames[1])
		}
	}
	if with == 0 || without == 0 {
		t.Errorf("pings between blocks: %d streams with, %d without; want both", with, without)
	}
}

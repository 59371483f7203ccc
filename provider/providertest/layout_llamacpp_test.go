package providertest

import (
	"strings"
	"testing"
)

// TestLlamaCppLayout: the stream follows llama.cpp's layout: later blocks open
// while block 0 is open, all close at the end, tool_use starts carry no
// input, a call without arguments gets no fragment, and the thinking block's
// last delta is an empty signature_delta after the other blocks' content.
func TestLlamaCppLayout(t *testing.T) {
	turn := richTurn()
	turn.ToolCalls = append(turn.ToolCalls, Call{Name: "now"})
	s := NewServer(t, Script{turn}, WithSeed(3), WithMessagesLayout(LayoutLlamaCpp))
	rep := postMessages(t, s, messagesBody(obj{"role": "user", "content": "weather?"}))
	if rep.status != 200 || rep.err != nil {
		t.Fatalf("status %d, err %v: %s", rep.status, rep.err, rep.body)
	}
	events := decodeFrames(t, rep.frames)
	const blocks = 5 // thinking, text, three calls
	starts, stops := map[int]int{}, map[int]int{}
	args := map[int]*strings.Builder{}
	var sigs []string
	lastTextDelta, lateSig := -1, -1
	for i, e := range events {
		index, _ := e["index"].(float64)
		n := int(index)
		switch e["type"] {
		case "ping":
			t.Errorf("frame %d: llama.cpp sends no ping", i)
		case "content_block_start":
			starts[n] = i
			b, _ := e["content_block"].(map[string]any)
			if b["type"] == "tool_use" {
				if _, has := b["input"]; has {
					t.Errorf("frame %d: tool_use start has input: %v", i, b)
				}
				args[n] = &strings.Builder{}
			}
		case "content_block_stop":
			stops[n] = i
		case "content_block_delta":
			d, _ := e["delta"].(map[string]any)
			switch d["type"] {
			case "text_delta":
				lastTextDelta = i
			case "signature_delta":
				sig, _ := d["signature"].(string)
				sigs = append(sigs, sig)
				if n != 0 {
					t.Errorf("frame %d: signature on block %d", i, n)
				}
				lateSig = i
			case "input_json_delta":
				p, _ := d["partial_json"].(string)
				if p == "" {
					t.Errorf("frame %d: empty input_json_delta", i)
				}
				args[n].WriteString(p)
			}
		}
	}
	if len(starts) != blocks || len(stops) != blocks {
		t.Fatalf("starts %v, stops %v", starts, stops)
	}
	for i := 1; i < blocks; i++ {
		if starts[i] > stops[0] {
			t.Errorf("block %d opened after block 0 closed", i)
		}
	}
	if len(sigs) != 2 || sigs[0] == "" || sigs[1] != "" || lateSig < lastTextDelta || lateSig > stops[0] {
		t.Errorf("signatures %q, late one at frame %d (last text delta %d, block 0 stop %d)", sigs, lateSig, lastTextDelta, stops[0])
	}
	for i, c := range turn.ToolCalls {
		if got := args[2+i].String(); got != c.Arguments {
			t.Errorf("call %d arguments %q, want %q", i, got, c.Arguments)
		}
	}
}

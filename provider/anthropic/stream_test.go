package anthropic

import (
	"bytes"
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/agent-lsp/agent-lsp/provider"
)

// realisticBody builds a Messages SSE body as the API sends it: message_start,
// a thinking block with its signature, a long text answer streamed a few
// characters at a time with a ping now and then, and two tool calls whose
// arguments arrive in fragments.
func realisticBody() []byte {
	var b bytes.Buffer
	frame := func(v any) {
		data, err := json.Marshal(v)
		if err != nil {
			panic(err)
		}
		var typ struct{ Type string }
		_ = json.Unmarshal(data, &typ)
		fmt.Fprintf(&b, "event: %s\ndata: %s\n\n", typ.Type, data)
	}
	type m = map[string]any
	ping := func() { frame(m{"type": "ping"}) }
	delta := func(index int, d m) { frame(m{"type": "content_block_delta", "index": index, "delta": d}) }

	frame(m{"type": "message_start", "message": m{
		"id": "msg_01", "type": "message", "role": "assistant", "model": "deepseek-flash",
		"content": []any{}, "stop_reason": nil, "stop_sequence": nil,
		"usage": m{"input_tokens": 199, "cache_read_input_tokens": 1408, "cache_creation_input_tokens": 0, "output_tokens": 1},
	}})
	ping()
	frame(m{"type": "content_block_start", "index": 0, "content_block": m{"type": "thinking", "thinking": "", "signature": ""}})
	for i := range 60 {
		delta(0, m{"type": "thinking_delta", "thinking": fmt.Sprintf(" step %d of the plan", i)})
	}
	delta(0, m{"type": "signature_delta", "signature": strings.Repeat("EqQBCkYIARgCIkB", 8)})
	frame(m{"type": "content_block_stop", "index": 0})
	frame(m{"type": "content_block_start", "index": 1, "content_block": m{"type": "text", "text": ""}})
	words := strings.Fields("The function `Add` in calc/calc.go returns a + b; there are 3 .go files & one test <ok>.")
	for i := range 300 {
		if i%25 == 24 {
			ping()
		}
		delta(1, m{"type": "text_delta", "text": " " + words[i%len(words)]})
	}
	frame(m{"type": "content_block_stop", "index": 1})
	for n, city := range []string{"Hangzhou", "Beijing"} {
		index := 2 + n
		frame(m{"type": "content_block_start", "index": index, "content_block": m{
			"type": "tool_use", "id": fmt.Sprintf("toolu_0%d", n), "name": "get_weather", "input": m{}}})
		args := fmt.Sprintf(`{"location": %q, "unit": "celsius", "days": 3}`, city)
		for i := 0; i < len(args); i += 4 {
			delta(index, m{"type": "input_json_delta", "partial_json": args[i:min(i+4, len(args))]})
		}
		frame(m{"type": "content_block_stop", "index": index})
	}
	frame(m{"type": "message_delta", "delta": m{"stop_reason": "tool_use", "stop_sequence": nil}, "usage": m{"output_tokens": 512}})
	frame(m{"type": "message_stop"})
	return b.Bytes()
}

// TestDecodeSSERealisticBody runs the benchmark's body through the shared SSE
// reader, so the benchmark measures a stream that decodes correctly.
func TestDecodeSSERealisticBody(t *testing.T) {
	var text, reasoning strings.Builder
	args := map[string]string{}
	var signature string
	var done []provider.Event
	err := provider.DecodeSSE(bytes.NewReader(realisticBody()), NewDialect().NewDecoder(), nil, func(e provider.Event) {
		switch e.Type {
		case provider.EventText:
			text.WriteString(e.Text)
		case provider.EventReasoning:
			reasoning.WriteString(e.Text)
		case provider.EventReasoningSignature:
			signature += e.Text
		case provider.EventToolUseArgs:
			args[e.ToolCallID] += e.Text
		case provider.EventDone:
			done = append(done, e)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(strings.Fields(text.String())); n != 300 {
		t.Errorf("text has %d words, want 300", n)
	}
	if !strings.HasPrefix(reasoning.String(), " step 0 of the plan step 1") {
		t.Errorf("reasoning = %.40q", reasoning.String())
	}
	if signature != strings.Repeat("EqQBCkYIARgCIkB", 8) {
		t.Errorf("signature = %q", signature)
	}
	for id, want := range map[string]string{"toolu_00": "Hangzhou", "toolu_01": "Beijing"} {
		var got struct{ Location string }
		if err := json.Unmarshal([]byte(args[id]), &got); err != nil || got.Location != want {
			t.Errorf("%s arguments %q: %v", id, args[id], err)
		}
	}
	wantDone := provider.Event{Type: provider.EventDone, StopReason: provider.StopToolUse,
		Usage: provider.Usage{PromptTokens: 1607, CompletionTokens: 512, CachedTokens: 1408}}
	if len(done) != 1 || done[0] != wantDone {
		t.Errorf("done = %+v", done)
	}
}

// TestDecodeSSESeedStream decodes the frames of the stream the decoder was
// first checked against (decode_test.go), as SSE with its event: lines and
// a ping (wire rule 9, docs/design.md §5).
func TestDecodeSSESeedStream(t *testing.T) {
	body := "event: message_start\n" +
		"data: " + frameMessageStartSeed + "\n\n" +
		"event: content_block_start\n" +
		`data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}` + "\n\n" +
		"event: content_block_delta\n" +
		`data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi"}}` + "\n\n" +
		"event: ping\n" +
		`data: {"type":"ping"}` + "\n\n" +
		"event: content_block_stop\n" +
		`data: {"type":"content_block_stop","index":0}` + "\n\n" +
		"event: message_delta\n" +
		`data: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":2}}` + "\n\n" +
		"event: message_stop\n" +
		`data: {"type":"message_stop"}` + "\n\n"
	var events []provider.Event
	if err := provider.DecodeSSE(strings.NewReader(body), NewDialect().NewDecoder(), nil, func(e provider.Event) {
		events = append(events, e)
	}); err != nil {
		t.Fatal(err)
	}
	want := []provider.Event{
		{Type: provider.EventText, Text: "Hi"},
		{Type: provider.EventDone, StopReason: provider.StopEndTurn, Usage: provider.Usage{PromptTokens: 1607, CompletionTokens: 2, CachedTokens: 1408}},
	}
	if len(events) != len(want) || events[0] != want[0] || events[1] != want[1] {
		t.Errorf("events = %+v", events)
	}
}

// BenchmarkDecodeStream decodes a realistic body through provider.DecodeSSE
// and reports events per second and heap allocations per event.
func BenchmarkDecodeStream(b *testing.B) {
	body := realisticBody()
	d := NewDialect()
	events := 0
	count := func(provider.Event) { events++ }
	benchmarkEvents(b, len(body), &events, func() error {
		return provider.DecodeSSE(bytes.NewReader(body), d.NewDecoder(), nil, count)
	})
}

// BenchmarkDecodeFrames is the decoder alone, without the SSE reader.
func BenchmarkDecodeFrames(b *testing.B) {
	type frame struct {
		event string
		data  []byte
	}
	var frames []frame
	for chunk := range strings.SplitSeq(strings.TrimSpace(string(realisticBody())), "\n\n") {
		event, data, _ := strings.Cut(chunk, "\n")
		frames = append(frames, frame{strings.TrimPrefix(event, "event: "), []byte(strings.TrimPrefix(data, "data: "))})
	}
	d := NewDialect()
	events := 0
	count := func(provider.Event) { events++ }
	benchmarkEvents(b, 0, &events, func() error {
		dec := d.NewDecoder()
		for _, f := range frames {
			if err := dec.Frame(f.event, f.data, count); err != nil {
				return err
			}
		}
		return nil
	})
}

func benchmarkEvents(b *testing.B, bytesPerOp int, events *int, decode func() error) {
	b.SetBytes(int64(bytesPerOp))
	b.ReportAllocs()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	for b.Loop() {
		if err := decode(); err != nil {
			b.Fatal(err)
		}
	}
	elapsed := time.Since(start)
	runtime.ReadMemStats(&after)
	if *events == 0 {
		b.Fatal("no events")
	}
	b.ReportMetric(float64(*events)/elapsed.Seconds(), "events/s")
	b.ReportMetric(float64(after.Mallocs-before.Mallocs)/float64(*events), "allocs/event")
}

func BenchmarkEncodeThreeRounds(b *testing.B) {
	req := threeRoundConversation()
	d := NewDialect()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := d.Encode(req); err != nil {
			b.Fatal(err)
		}
	}
}

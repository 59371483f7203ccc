package openai

import (
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/provider"
)

// realisticStream builds a DeepSeek answer the size of a busy round: some
// reasoning, many short text deltas, then three tool calls whose arguments
// arrive in small fragments, and the finish chunk with usage.
func realisticStream() string {
	const head = `data: {"id":"2f1c9a7e-5b0d-4c7e-9a51-3d2e8f6b1a40","object":"chat.completion.chunk","created":1764489600,"model":"deepseek-flash","system_fingerprint":"fp_8802369eaa_prod0623_fp8_kvcache","choices":[{"index":0,"delta":`
	const tail = `,"logprobs":null,"finish_reason":null}]}` + "\n\n"
	words := strings.Fields("the function reads the file, splits it into lines and returns the first match; when nothing matches it returns an error wrapping fs.ErrNotExist")
	var b strings.Builder
	b.WriteString(head + `{"role":"assistant","content":null,"reasoning_content":""}` + tail)
	for i := range 200 {
		b.WriteString(head + `{"content":null,"reasoning_content":` + strconv.Quote(" "+words[i%len(words)]) + `}` + tail)
	}
	for i := range 800 {
		b.WriteString(head + `{"content":` + strconv.Quote(" "+words[i%len(words)]) + `,"reasoning_content":null}` + tail)
	}
	for call := range 3 {
		fmt.Fprintf(&b, head+`{"tool_calls":[{"index":%d,"id":"call_%02d_EQSIh2ejOTwD2ifbR6vJ6OcO","type":"function","function":{"name":"read_file","arguments":""}}]}`+tail, call, call)
		for _, frag := range []string{`{`, `"`, `path`, `":`, ` "`, `src`, `/provider`, `/openai`, `/decode`, `.go`, `"}`} {
			fmt.Fprintf(&b, head+`{"tool_calls":[{"index":%d,"function":{"arguments":%s}}]}`+tail, call, strconv.Quote(frag))
		}
	}
	b.WriteString(head + `{"content":""},"logprobs":null,"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":1607,"completion_tokens":1092,"total_tokens":2699,"prompt_tokens_details":{"cached_tokens":1408},"prompt_cache_hit_tokens":1408,"prompt_cache_miss_tokens":199}}` + "\n\n")
	b.WriteString("data: [DONE]\n\n")
	return b.String()
}

// reportPerEvent adds events/s and allocs/event; allocs/op alone hides how
// many events an op produced.
func reportPerEvent(b *testing.B, events int, mallocsBefore uint64) {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
	b.ReportMetric(float64(ms.Mallocs-mallocsBefore)/float64(events), "allocs/event")
}

// BenchmarkDecodeStream measures a whole answer body through the provider's
// SSE framer and this decoder: the path of every live stream.
func BenchmarkDecodeStream(b *testing.B) {
	body := realisticStream()
	events := 0
	emit := func(provider.Event) { events++ }
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ResetTimer()
	for b.Loop() {
		if err := provider.DecodeSSE(strings.NewReader(body), NewDialect().NewDecoder(), nil, emit); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	reportPerEvent(b, events, ms.Mallocs)
}

// BenchmarkDecodeFrames measures the decoder alone on pre-split frames.
func BenchmarkDecodeFrames(b *testing.B) {
	frames := sseFrames(b, realisticStream())
	events := 0
	emit := func(provider.Event) { events++ }
	b.ReportAllocs()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ResetTimer()
	for b.Loop() {
		dec := NewDialect().NewDecoder()
		for _, f := range frames {
			if err := dec.Frame("", f, emit); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.StopTimer()
	reportPerEvent(b, events, ms.Mallocs)
}

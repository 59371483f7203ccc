package providertest

import (
	"strings"
	"testing"
)

// TestPrefixCacheCountsTheSharedPrefix: a request that repeats the last
// one's prompt and adds to it reads the shared part from the cache, in
// whole units, in both dialects' usage; one that changes the start reads
// nothing; a cache_control marker is not prompt content.
func TestPrefixCacheCountsTheSharedPrefix(t *testing.T) {
	long := strings.Repeat("0123456789abcdef", 200) // 3,200 bytes: 800 tokens
	first := obj{"role": "user", "content": long}
	answer := obj{"role": "assistant", "content": "ok"}
	next := obj{"role": "user", "content": "and then?"}

	t.Run("chat", func(t *testing.T) {
		s := NewServer(t, Script{{Text: "ok"}, {Text: "more"}, {Text: "other"}}, WithSeed(1), WithPrefixCache(NewPrefixCache()))
		for i, body := range []obj{chatBody(first), chatBody(first, answer, next), chatBody(next, first)} {
			rep := postChat(t, s, body)
			if rep.status != 200 {
				t.Fatalf("request %d: %d %s", i, rep.status, rep.body)
			}
			chunks := decodeFrames(t, rep.frames)
			u := chunks[len(chunks)-1]["usage"]
			rec := s.Requests()[i]
			want := [...]int{0, 768, 0}[i] // 800 shared tokens are 6 whole units
			if rec.CachedTokens != want || path(u, "prompt_cache_hit_tokens") != float64(want) ||
				path(u, "prompt_tokens") != float64(rec.PromptTokens) {
				t.Errorf("request %d: cached %d, usage %v; want %d cached of %d", i, rec.CachedTokens, u, want, rec.PromptTokens)
			}
		}
	})
	t.Run("messages", func(t *testing.T) {
		s := NewServer(t, Script{{Text: "ok"}, {Text: "more"}}, WithSeed(1), WithPrefixCache(NewPrefixCache()))
		marked := obj{"role": "user", "content": []obj{{"type": "text", "text": long, "cache_control": obj{"type": "ephemeral"}}}}
		plain := obj{"role": "user", "content": []obj{{"type": "text", "text": long}}}
		for i, body := range []obj{messagesBody(marked), messagesBody(plain, answer, next)} {
			rep := postMessages(t, s, body)
			if rep.status != 200 {
				t.Fatalf("request %d: %d %s", i, rep.status, rep.body)
			}
			var read, input any
			for _, c := range decodeFrames(t, rep.frames) {
				if c["type"] == "message_start" {
					read, input = path(c, "message", "usage", "cache_read_input_tokens"), path(c, "message", "usage", "input_tokens")
				}
			}
			rec := s.Requests()[i]
			want := [...]int{0, 768}[i]
			if rec.CachedTokens != want || read != float64(want) || input != float64(rec.PromptTokens-want) {
				t.Errorf("request %d: cached %d, cache_read %v, input %v; want %d of %d", i, rec.CachedTokens, read, input, want, rec.PromptTokens)
			}
		}
	})
}

package providertest

import (
	"bytes"
	"encoding/json"
	"sync"
)

// The simulated prompt cache: what a request shares, from its start, with
// one of the last few prompts the service saw is read from the cache. The
// prompt is what a service's cache matches on, in its order: the tool list,
// the system prompt, then the messages; a Messages cache_control marker is
// an instruction to the cache, not prompt content, and is left out.

// Granularity and memory of the simulated cache: DeepSeek reports cache hits
// in multiples of 128 tokens, and a session only ever matches one of its
// recent prompts (a compaction's summary call sits between two rounds).
const (
	CacheUnit  = 128
	CacheDepth = 4
)

// PrefixCache is one model service's prompt cache, shared by the servers
// that stand for that service (a test may route summary calls to a server
// of their own).
type PrefixCache struct {
	mu     sync.Mutex
	recent [][]byte // the last CacheDepth prompts, oldest first
}

// NewPrefixCache returns an empty cache.
func NewPrefixCache() *PrefixCache { return &PrefixCache{} }

// WithPrefixCache makes the server report prompt caching from c: each
// accepted request's cached tokens (the longest prefix it shares with one
// of the last CacheDepth prompts c saw, in whole CacheUnit tokens at the
// fake's 4 bytes a token) are recorded in Received.CachedTokens, and a turn
// whose Usage.PromptTokens is 0 reports PromptTokens(body) as its prompt
// and that many of them as cached: Chat Completions'
// prompt_cache_hit_tokens and cached_tokens, Messages'
// cache_read_input_tokens (its input_tokens being the rest).
func WithPrefixCache(c *PrefixCache) Option {
	return func(s *Server) { s.cache = c }
}

// take counts the cached part of body's prompt (of tokens in all) and
// remembers the prompt.
func (c *PrefixCache) take(body []byte, tokens int) int {
	key := cacheKey(body)
	c.mu.Lock()
	defer c.mu.Unlock()
	best := 0
	for _, p := range c.recent {
		n := min(len(p), len(key))
		i := 0
		for i < n && p[i] == key[i] {
			i++
		}
		best = max(best, i)
	}
	c.recent = append(c.recent, key)
	if len(c.recent) > CacheDepth {
		c.recent = c.recent[1:]
	}
	return min(best/4/CacheUnit*CacheUnit, tokens)
}

// cacheKey is the prompt of a request body as the cache sees it.
func cacheKey(body []byte) []byte {
	req, ok := decodeObject(body)
	if !ok {
		return nil
	}
	var b bytes.Buffer
	for _, k := range []string{"tools", "system", "messages"} {
		raw := req[k]
		if len(raw) == 0 {
			continue
		}
		var v any
		if json.Unmarshal(raw, &v) != nil {
			b.Write(raw)
			continue
		}
		out, _ := json.Marshal(withoutCacheControl(v))
		b.Write(out)
		b.WriteByte('\n')
	}
	return b.Bytes()
}

func withoutCacheControl(v any) any {
	switch v := v.(type) {
	case map[string]any:
		delete(v, "cache_control")
		for k, x := range v {
			v[k] = withoutCacheControl(x)
		}
	case []any:
		for i, x := range v {
			v[i] = withoutCacheControl(x)
		}
	}
	return v
}

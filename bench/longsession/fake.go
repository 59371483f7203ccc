package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"
)

// The fake model runs in its own process (longsession -serve), so that its
// work (reading, decoding and answering requests that grow to megabytes
// without a budget) is not counted in the agent's CPU time nor competes
// with it for the agent's garbage collector.

// cacheUnit is the granularity of the simulated prompt cache, in tokens:
// DeepSeek's reported cache hits are multiples of 128 (the measured 1408,
// 1536, 1664, 1792, 4864).
const cacheUnit = 128

// cacheDepth is how many earlier prompts the simulated cache remembers:
// a linear session only ever hits its previous request, a compaction's
// summary call sits between two requests of the session.
const cacheDepth = 4

// record is one request the fake answered, as it saw it.
type record struct {
	Arrived      int64 `json:"arrived"` // unix ns: the body was read, before any decoding
	Done         int64 `json:"done"`    // unix ns: the answer's last frame was flushed
	Bytes        int   `json:"bytes"`   // request body size
	Summary      bool  `json:"summary"` // a compaction's summary call (no tools offered)
	PromptTokens int   `json:"prompt_tokens"`
	CachedTokens int   `json:"cached_tokens"`
	Completion   int   `json:"completion_tokens"`
}

// fake answers a session of rounds tool rounds: each request offering tools
// gets a read_file call of the next 4 KB file until rounds calls were made,
// then a final text; a request without tools (a summary call) gets a short
// summary.
type fake struct {
	rounds int

	mu      sync.Mutex // one request at a time, as one session makes them
	calls   int
	prefix  []string // the last cacheDepth prompts' cache keys
	records []record
}

// request is the part of a Chat Completions body the fake reads.
type request struct {
	Messages []json.RawMessage `json:"messages"`
	Tools    json.RawMessage   `json:"tools"`
}

func (f *fake) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/stats" {
		f.mu.Lock()
		defer f.mu.Unlock()
		_ = json.NewEncoder(w).Encode(f.records)
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	body, err := io.ReadAll(r.Body)
	arrived := time.Now().UnixNano()
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var req request
	if err := json.Unmarshal(body, &req); err != nil || len(req.Messages) == 0 {
		http.Error(w, fmt.Sprintf(`{"error":{"message":"bad request: %v"}}`, err), http.StatusBadRequest)
		return
	}
	key, tokens := cacheKey(req)
	rec := record{Arrived: arrived, Bytes: len(body), PromptTokens: tokens,
		CachedTokens: f.cached(key, tokens), Summary: len(bytes.TrimSpace(req.Tools)) == 0 || string(req.Tools) == "null"}
	f.prefix = append(f.prefix, key)
	if len(f.prefix) > cacheDepth {
		f.prefix = f.prefix[1:]
	}

	var frames []string
	switch {
	case rec.Summary:
		frames = textFrames("The user asked for the files to be read one by one; files f000.txt to the last one shown were read, each holding generated lines; nothing was changed; what remains is to read the rest.")
	case f.calls < f.rounds:
		args, _ := json.Marshal(map[string]string{"path": fileName(f.calls)})
		frames = []string{toolFrame(fmt.Sprintf("call_%04d", f.calls), "read_file", string(args))}
		f.calls++
	default:
		frames = textFrames("All files are read.")
	}
	rec.Completion = 30
	finish := "stop"
	if !rec.Summary && strings.Contains(frames[0], `"tool_calls"`) {
		finish = "tool_calls"
	}
	frames = append(frames, fmt.Sprintf(`{"id":"c","object":"chat.completion.chunk","created":1,"model":"deepseek-flash","choices":[{"index":0,"delta":{},"finish_reason":%q}],"usage":{"prompt_tokens":%d,"completion_tokens":%d,"total_tokens":%d,"prompt_cache_hit_tokens":%d,"prompt_cache_miss_tokens":%d}}`,
		finish, rec.PromptTokens, rec.Completion, rec.PromptTokens+rec.Completion, rec.CachedTokens, rec.PromptTokens-rec.CachedTokens))
	w.Header().Set("Content-Type", "text/event-stream")
	bw := bufio.NewWriter(w)
	for _, fr := range frames {
		fmt.Fprintf(bw, "data: %s\n\n", fr)
	}
	fmt.Fprint(bw, "data: [DONE]\n\n")
	_ = bw.Flush()
	_ = http.NewResponseController(w).Flush()
	rec.Done = time.Now().UnixNano()
	f.records = append(f.records, rec)
}

// cacheKey is the prompt as the simulated cache sees it (the tools, then
// each message, compacted) and its size in tokens (bytes / 4, as
// providertest counts).
func cacheKey(req request) (string, int) {
	var b strings.Builder
	var c bytes.Buffer
	add := func(raw json.RawMessage) {
		c.Reset()
		if json.Compact(&c, raw) != nil {
			b.Write(raw)
			return
		}
		b.Write(c.Bytes())
		b.WriteByte('\n')
	}
	if len(req.Tools) > 0 {
		add(req.Tools)
	}
	for _, m := range req.Messages {
		add(m)
	}
	return b.String(), (b.Len() + 3) / 4
}

// cached is the longest prefix key shares with a remembered prompt, in
// whole cache units, in tokens.
func (f *fake) cached(key string, tokens int) int {
	best := 0
	for _, p := range f.prefix {
		n := min(len(p), len(key))
		i := 0
		for i < n && p[i] == key[i] {
			i++
		}
		best = max(best, i)
	}
	return min(best/4/cacheUnit*cacheUnit, tokens)
}

func textFrames(text string) []string {
	t, _ := json.Marshal(text)
	return []string{fmt.Sprintf(`{"id":"c","object":"chat.completion.chunk","created":1,"model":"deepseek-flash","choices":[{"index":0,"delta":{"role":"assistant","content":%s},"finish_reason":null}]}`, t)}
}

func toolFrame(id, name, args string) string {
	a, _ := json.Marshal(args)
	return fmt.Sprintf(`{"id":"c","object":"chat.completion.chunk","created":1,"model":"deepseek-flash","choices":[{"index":0,"delta":{"role":"assistant","tool_calls":[{"index":0,"id":%q,"type":"function","function":{"name":%q,"arguments":%s}}]},"finish_reason":null}]}`, id, name, a)
}

// serve runs the fake until stdin closes: it prints its address on stdout.
func serve(rounds int) error {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return fmt.Errorf("fake model: %w", err)
	}
	srv := &http.Server{Handler: &fake{rounds: rounds}}
	go func() { _ = srv.Serve(ln) }()
	fmt.Fprintln(os.Stdout, "http://"+ln.Addr().String())
	_, _ = io.Copy(io.Discard, os.Stdin) // the parent closes stdin (or dies): stop
	return srv.Close()
}

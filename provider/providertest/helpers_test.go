package providertest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// frame is one SSE event as a client sees it.
type frame struct {
	event string
	data  string
}

// readSSE is the tests' own small SSE reader (independent of the provider
// package's): it splits the body into frames on blank lines, skipping
// comments, and returns the error that ended the body (nil at a clean EOF).
func readSSE(r io.Reader) ([]frame, error) {
	var frames []frame
	var cur frame
	var data []string
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if data != nil || cur.event != "" {
				cur.data = strings.Join(data, "\n")
				frames = append(frames, cur)
			}
			cur, data = frame{}, nil
		case strings.HasPrefix(line, ":"):
		case strings.HasPrefix(line, "event:"):
			cur.event = strings.TrimPrefix(strings.TrimPrefix(line, "event:"), " ")
		case strings.HasPrefix(line, "data:"):
			data = append(data, strings.TrimPrefix(strings.TrimPrefix(line, "data:"), " "))
		}
	}
	return frames, sc.Err()
}

// reply is a response the tests read completely.
type reply struct {
	status int
	header http.Header
	body   []byte
	frames []frame
	err    error // the error that ended the body, nil at a clean end
}

func postRaw(t *testing.T, url string, header http.Header, body []byte) reply {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header = header
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("POST %s: %v", url, err)
	}
	defer resp.Body.Close()
	raw, readErr := io.ReadAll(resp.Body)
	rep := reply{status: resp.StatusCode, header: resp.Header, body: raw, err: readErr}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		rep.frames, _ = readSSE(bytes.NewReader(raw))
	}
	return rep
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func chatHeader() http.Header {
	return http.Header{"Content-Type": {"application/json"}}
}

func messagesHeader() http.Header {
	return http.Header{"Content-Type": {"application/json"}, "Anthropic-Version": {"2023-06-01"}}
}

func postChat(t *testing.T, s *Server, body any) reply {
	t.Helper()
	return postRaw(t, s.OpenAIBaseURL()+"/chat/completions", chatHeader(), mustJSON(t, body))
}

func postMessages(t *testing.T, s *Server, body any) reply {
	t.Helper()
	return postRaw(t, s.AnthropicBaseURL()+"/v1/messages", messagesHeader(), mustJSON(t, body))
}

// obj is shorthand for building request bodies.
type obj = map[string]any

func chatBody(messages ...obj) obj {
	if messages == nil {
		messages = []obj{}
	}
	return obj{"model": "deepseek-flash", "stream": true, "messages": messages}
}

func messagesBody(messages ...obj) obj {
	if messages == nil {
		messages = []obj{}
	}
	return obj{"model": "deepseek-flash", "max_tokens": 1024, "stream": true, "messages": messages}
}

// decodeFrames decodes every frame's data as JSON (skipping [DONE]).
func decodeFrames(t *testing.T, frames []frame) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, f := range frames {
		if f.data == "[DONE]" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(f.data), &m); err != nil {
			t.Fatalf("frame %q is not JSON: %v", f.data, err)
		}
		out = append(out, m)
	}
	return out
}

// path walks a decoded JSON value: string keys index objects, ints arrays.
func path(v any, keys ...any) any {
	for _, k := range keys {
		switch k := k.(type) {
		case string:
			m, ok := v.(map[string]any)
			if !ok {
				return nil
			}
			v = m[k]
		case int:
			a, ok := v.([]any)
			if !ok || k >= len(a) {
				return nil
			}
			v = a[k]
		}
	}
	return v
}

var createdRE = regexp.MustCompile(`"created":\d+`)

// golden compares got with testdata/name, rewriting it under -update. The
// Unix time in Chat Completions chunks is normalised.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	got = createdRE.ReplaceAll(got, []byte(`"created":0`))
	file := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(file, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("stream differs from %s (run with -update after checking):\n--- got\n%s\n--- want\n%s", file, got, want)
	}
}

func isUnexpectedEOF(err error) bool {
	return errors.Is(err, io.ErrUnexpectedEOF)
}

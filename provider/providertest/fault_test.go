package providertest

import (
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// post sends a trivial valid request of the dialect.
func post(t *testing.T, s *Server, dialect string) reply {
	t.Helper()
	if dialect == dialectAnthropic {
		return postMessages(t, s, messagesBody(user("hi")))
	}
	return postChat(t, s, chatBody(user("hi")))
}

var dialects = []string{dialectOpenAI, dialectAnthropic}

func TestFaultStatus(t *testing.T) {
	for _, d := range dialects {
		t.Run(d, func(t *testing.T) {
			s := NewServer(t, Script{
				{Fault: &Fault{Status: 429, RetryAfter: "2"}},
				{Fault: &Fault{Status: 503, Body: `{"custom":true}`}},
				{Text: "ok"},
			}, WithSeed(1))
			rep := post(t, s, d)
			if rep.status != 429 || rep.header.Get("Retry-After") != "2" {
				t.Fatalf("status %d Retry-After %q", rep.status, rep.header.Get("Retry-After"))
			}
			errorMessage(t, d, 429, rep.body) // checks the dialect's shape
			if rep := post(t, s, d); rep.status != 503 || string(rep.body) != `{"custom":true}` {
				t.Fatalf("custom body: %d %s", rep.status, rep.body)
			}
			if rep := post(t, s, d); rep.status != 200 {
				t.Fatalf("after the faults: %d", rep.status)
			}
			for i, r := range s.Requests() {
				if r.Turn != i || r.Rejected != "" {
					t.Errorf("request %d recorded as %+v; a scripted status consumes its turn", i, r)
				}
			}
		})
	}
}

func TestFaultDrop(t *testing.T) {
	for _, d := range dialects {
		for _, tc := range []struct {
			fault Fault
			want  int
		}{
			{Fault{DropAfterFrames: 3}, 3},
			{Fault{Drop: true}, 0},
			{Fault{Drop: true, AfterFrames: 2}, 2},
			{Fault{DropAfterFrames: 1000}, -1}, // after the last frame: still no clean end
		} {
			t.Run(fmt.Sprintf("%s/%+v", d, tc.fault), func(t *testing.T) {
				fault := tc.fault
				s := NewServer(t, Script{{Text: "hello world, this is long enough", Fault: &fault}}, WithSeed(1))
				rep := post(t, s, d)
				if rep.status != 200 {
					t.Fatalf("status %d", rep.status)
				}
				if !isUnexpectedEOF(rep.err) {
					t.Fatalf("body ended with %v, want unexpected EOF", rep.err)
				}
				if tc.want >= 0 && len(rep.frames) != tc.want {
					t.Errorf("%d frames before the drop, want %d", len(rep.frames), tc.want)
				}
				if tc.want < 0 && len(rep.frames) < 5 {
					t.Errorf("only %d frames before a drop at the end", len(rep.frames))
				}
			})
		}
	}
}

func TestFaultGarbage(t *testing.T) {
	for _, d := range dialects {
		t.Run(d, func(t *testing.T) {
			clean := post(t, NewServer(t, Script{{Text: "hello"}}, WithSeed(4)), d)
			s := NewServer(t, Script{{Text: "hello", Fault: &Fault{GarbageAfterFrames: 2}}}, WithSeed(4))
			rep := post(t, s, d)
			if rep.err != nil || len(rep.frames) != len(clean.frames)+1 {
				t.Fatalf("err %v, %d frames; want the %d clean frames plus one", rep.err, len(rep.frames), len(clean.frames))
			}
			for i, f := range rep.frames {
				isJSON := f.data == "[DONE]" || strings.HasPrefix(f.data, "{") && !strings.Contains(f.data, "garbage")
				if (i == 2) == isJSON {
					t.Errorf("frame %d %q: garbage expected exactly at 2", i, f.data)
				}
			}
		})
	}
}

func TestFaultErrorEvent(t *testing.T) {
	for _, d := range dialects {
		t.Run(d, func(t *testing.T) {
			s := NewServer(t, Script{{Text: "hello world", Fault: &Fault{ErrorEvent: true, AfterFrames: 2}}}, WithSeed(1))
			rep := post(t, s, d)
			if rep.err != nil || len(rep.frames) != 3 {
				t.Fatalf("err %v, %d frames, want 2 frames and the error", rep.err, len(rep.frames))
			}
			last := rep.frames[2]
			events := decodeFrames(t, rep.frames[2:])
			if d == dialectAnthropic {
				if last.event != "error" || path(events[0], "error", "type") != "overloaded_error" || path(events[0], "error", "message") != "Overloaded" {
					t.Errorf("error event %+v", last)
				}
			} else if path(events[0], "error", "type") != "server_error" || path(events[0], "error", "message") == nil {
				t.Errorf("error chunk %+v", last)
			}
		})
	}
}

func TestFaultNoFinish(t *testing.T) {
	for _, d := range dialects {
		t.Run(d, func(t *testing.T) {
			s := NewServer(t, Script{{Text: "hello", Fault: &Fault{NoFinish: true}}}, WithSeed(1))
			rep := post(t, s, d)
			if rep.err != nil {
				t.Fatalf("body ended with %v, want a clean end", rep.err)
			}
			for _, f := range rep.frames {
				if f.data == "[DONE]" || strings.Contains(f.data, `"finish_reason":"`) || f.event == "message_delta" || f.event == "message_stop" {
					t.Errorf("finish frame in a NoFinish stream: %+v", f)
				}
			}
			if len(rep.frames) < 2 {
				t.Errorf("only %d frames", len(rep.frames))
			}
		})
	}
}

func TestKeepAliveComment(t *testing.T) {
	s := NewServer(t, Script{{Text: "hi"}}, WithKeepAliveComment(), WithSeed(1))
	rep := post(t, s, dialectOpenAI)
	if !strings.HasPrefix(string(rep.body), ": keep-alive\n\ndata: {") {
		t.Errorf("stream opens with %q", rep.body[:min(40, len(rep.body))])
	}
}

// recordingTB captures Errorf so the script-exhaustion error can be checked.
type recordingTB struct {
	testing.TB
	mu     sync.Mutex
	errors []string
}

func (r *recordingTB) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

func TestScriptExhausted(t *testing.T) {
	rec := &recordingTB{TB: t}
	s := NewServer(rec, Script{{Text: "only"}}, WithSeed(1))
	post(t, s, dialectOpenAI)
	rep := post(t, s, dialectAnthropic)
	if rep.status != 500 || !strings.Contains(string(rep.body), "script exhausted") {
		t.Fatalf("%d %s", rep.status, rep.body)
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if len(rec.errors) != 1 || !strings.Contains(rec.errors[0], "past the end of the script") {
		t.Errorf("t.Errorf calls: %q", rec.errors)
	}
	if last := s.Requests()[1]; last.Rejected != "script exhausted" || last.Turn != -1 {
		t.Errorf("recorded %+v", last)
	}
}

func TestCheck(t *testing.T) {
	var seen []Received
	s := NewServer(t, Script{{
		Text: "checked",
		Check: func(r Received) error {
			seen = append(seen, r)
			if !strings.Contains(string(r.Body), "please") {
				return errors.New("the request must say please")
			}
			return nil
		},
	}}, WithSeed(1))
	rep := postChat(t, s, chatBody(user("hi")))
	if rep.status != 400 || !strings.Contains(string(rep.body), "the request must say please") {
		t.Fatalf("%d %s", rep.status, rep.body)
	}
	if rep := postChat(t, s, chatBody(user("hi, please"))); rep.status != 200 {
		t.Fatalf("%d %s", rep.status, rep.body)
	}
	reqs := s.Requests()
	if reqs[0].Rejected != "the request must say please" || reqs[0].Turn != -1 || reqs[1].Turn != 0 {
		t.Errorf("recorded %+v / %+v", reqs[0], reqs[1])
	}
	if len(seen) != 2 || seen[0].Turn != 0 || seen[1].Turn != 0 || seen[1].Dialect != dialectOpenAI {
		t.Errorf("Check saw %+v", seen)
	}
}

func TestRoutesAndRecording(t *testing.T) {
	s := NewServer(t, Script{{Text: "a"}, {Text: "b"}, {Text: "c"}, {Text: "d"}}, WithSeed(1))
	for _, u := range []string{
		s.OpenAIBaseURL() + "/chat/completions",
		s.OpenAIBaseURL() + "/v1/chat/completions",
	} {
		if rep := postRaw(t, u, chatHeader(), mustJSON(t, chatBody(user("hi")))); rep.status != 200 {
			t.Errorf("%s: %d", u, rep.status)
		}
	}
	for _, u := range []string{
		s.AnthropicBaseURL() + "/v1/messages",
		s.OpenAIBaseURL() + "/v1/messages",
	} {
		if rep := postRaw(t, u, messagesHeader(), mustJSON(t, messagesBody(user("hi")))); rep.status != 200 {
			t.Errorf("%s: %d", u, rep.status)
		}
	}
	if rep := postRaw(t, s.OpenAIBaseURL()+"/v1/embeddings", chatHeader(), []byte("{}")); rep.status != 404 {
		t.Errorf("unknown path: %d", rep.status)
	}
	resp, err := http.Get(s.OpenAIBaseURL() + "/chat/completions")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 405 {
		t.Errorf("GET: %d", resp.StatusCode)
	}
	reqs := s.Requests()
	if len(reqs) != 6 {
		t.Fatalf("%d requests recorded", len(reqs))
	}
	wantDialects := []string{"openai", "openai", "anthropic", "anthropic", "", "openai"}
	for i, r := range reqs {
		if r.Dialect != wantDialects[i] {
			t.Errorf("request %d dialect %q, want %q", i, r.Dialect, wantDialects[i])
		}
	}
	if reqs[2].Header.Get("Anthropic-Version") != "2023-06-01" || reqs[2].Path != "/anthropic/v1/messages" {
		t.Errorf("recorded %+v", reqs[2])
	}
	var body struct{ Model string }
	if err := reqs[0].Decode(&body); err != nil || body.Model != "deepseek-flash" {
		t.Errorf("Decode: %v %+v", err, body)
	}
	if reqs[4].Status != 404 || reqs[5].Status != 405 {
		t.Errorf("statuses %d %d", reqs[4].Status, reqs[5].Status)
	}
}

// TestConcurrentRequests: every turn answers exactly one request, whatever
// the interleaving, and Append extends a running script.
func TestConcurrentRequests(t *testing.T) {
	const n = 24
	var script Script
	for i := 0; i < n/2; i++ {
		script = append(script, Turn{Text: fmt.Sprintf("turn %02d", i)})
	}
	s := NewServer(t, script, WithSeed(1), WithDeltaSize(100)) // each text in one delta
	for i := n / 2; i < n; i++ {
		s.Append(Turn{Text: fmt.Sprintf("turn %02d", i)})
	}
	var wg sync.WaitGroup
	texts := make([]string, n)
	for i := 0; i < n; i++ {
		wg.Go(func() {
			d := dialects[i%2]
			var req *http.Request
			if d == dialectAnthropic {
				req, _ = http.NewRequest(http.MethodPost, s.AnthropicBaseURL()+"/v1/messages", strings.NewReader(string(mustJSON(t, messagesBody(user("hi"))))))
				req.Header = messagesHeader()
			} else {
				req, _ = http.NewRequest(http.MethodPost, s.OpenAIBaseURL()+"/chat/completions", strings.NewReader(string(mustJSON(t, chatBody(user("hi"))))))
				req.Header = chatHeader()
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Error(err)
				return
			}
			defer resp.Body.Close()
			frames, _ := readSSE(resp.Body)
			for _, f := range frames {
				if m := turnTextRE.FindString(f.data); m != "" {
					texts[i] = m
				}
			}
		})
	}
	wg.Wait()
	if s.Consumed() != n || len(s.Requests()) != n {
		t.Fatalf("consumed %d, recorded %d", s.Consumed(), len(s.Requests()))
	}
	answered := map[string]bool{}
	for _, text := range texts {
		answered[text] = true
	}
	for i := 0; i < n; i++ {
		if !answered[fmt.Sprintf("turn %02d", i)] {
			t.Errorf("no response carried turn %02d (got %q)", i, texts)
		}
	}
	for i, r := range s.Requests() {
		if r.Turn != i {
			t.Errorf("request %d recorded with turn %d; Requests must list them in the order turns were handed out", i, r.Turn)
		}
	}
}

var turnTextRE = regexp.MustCompile(`turn \d\d`)

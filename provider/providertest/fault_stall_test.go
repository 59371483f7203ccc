package providertest

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/agent-lsp/agent-lsp/internal/await"
)

// timedFrame is a frame and when its last line arrived.
type timedFrame struct {
	data string
	at   time.Time
}

func readTimed(body *bufio.Reader) ([]timedFrame, error) {
	var out []timedFrame
	for {
		f, err := readFrame(body)
		if err != nil {
			return out, err
		}
		out = append(out, f)
	}
}

// readFrame reads the next data frame and notes when it was complete.
func readFrame(body *bufio.Reader) (timedFrame, error) {
	var data []string
	for {
		line, err := body.ReadString('\n')
		if err != nil {
			return timedFrame{}, err
		}
		line = strings.TrimRight(line, "\n")
		if line == "" && data != nil {
			return timedFrame{data: strings.Join(data, "\n"), at: time.Now()}, nil
		} else if strings.HasPrefix(line, "data: ") {
			data = append(data, strings.TrimPrefix(line, "data: "))
		}
	}
}

func TestFaultStall(t *testing.T) {
	// A second: no wall-clock bound in a test is shorter (this one is a
	// lower bound, which a loaded machine cannot break anyway).
	const stall = time.Second
	for _, d := range dialects {
		t.Run(d, func(t *testing.T) {
			t.Parallel() // each waits out its own stall
			s := NewServer(t, Script{{Text: "hello", Fault: &Fault{StallAfterFrames: 2, Stall: stall}}}, WithSeed(1))
			url, h, body := s.OpenAIBaseURL()+"/chat/completions", chatHeader(), chatBody(user("hi"))
			if d == dialectAnthropic {
				url, h, body = s.AnthropicBaseURL()+"/v1/messages", messagesHeader(), messagesBody(user("hi"))
			}
			req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, url, strings.NewReader(string(mustJSON(t, body))))
			req.Header = h
			start := time.Now()
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			frames, err := readTimed(bufio.NewReader(resp.Body))
			if !errors.Is(err, io.EOF) || len(frames) < 4 {
				t.Fatalf("err %v after %d frames", err, len(frames))
			}
			// Measured from the start: frame 1 may be read late on a loaded
			// machine, which shortens the gap seen between frames 1 and 2.
			// A lower bound: a stall cannot end early however loaded the
			// machine is. That the frames before it are not held back is
			// TestFaultStallSendsTheFramesBeforeIt's.
			if after := frames[2].at.Sub(start); after < stall {
				t.Errorf("frame 2 arrived %v after the request, want at least the %v stall", after, stall)
			}
		})
	}
}

// TestFaultStallSendsTheFramesBeforeIt: the frames before a stall reach
// the client while the stall lasts (here: forever), not after it.
func TestFaultStallSendsTheFramesBeforeIt(t *testing.T) {
	for _, d := range dialects {
		t.Run(d, func(t *testing.T) {
			s := NewServer(t, Script{{Text: "hello", Fault: &Fault{StallAfterFrames: 2, Stall: Forever}}}, WithSeed(1))
			url, h, body := s.OpenAIBaseURL()+"/chat/completions", chatHeader(), chatBody(user("hi"))
			if d == dialectAnthropic {
				url, h, body = s.AnthropicBaseURL()+"/v1/messages", messagesHeader(), messagesBody(user("hi"))
			}
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(string(mustJSON(t, body))))
			req.Header = h
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			two := make(chan []timedFrame, 1)
			go func() { // ends when the cancel below ends the read
				var got []timedFrame
				r := bufio.NewReader(resp.Body)
				for {
					f, err := readFrame(r)
					if err != nil {
						return
					}
					if got = append(got, f); len(got) == 2 {
						two <- got
					}
				}
			}()
			await.Event(t, two, "the two frames before the stall")
			cancel()
		})
	}
}

// TestFaultStallForever: the stall lasts until the client gives up, and the
// handler then ends (the server's cleanup would hang otherwise).
func TestFaultStallForever(t *testing.T) {
	s := NewServer(t, Script{{Text: "hello", Fault: &Fault{Stall: Forever, AfterFrames: 1}}}, WithSeed(1))
	ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, s.OpenAIBaseURL()+"/chat/completions", strings.NewReader(string(mustJSON(t, chatBody(user("hi"))))))
	req.Header = chatHeader()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	frames, err := readTimed(bufio.NewReader(resp.Body))
	if len(frames) != 1 || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("%d frames, err %v; want 1 frame then the client's deadline", len(frames), err)
	}
}

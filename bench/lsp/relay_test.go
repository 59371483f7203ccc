package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agent-lsp/agent-lsp/bench/lspclient"
)

var (
	binFlag    = flag.String("bin", "", "the agent-lsp binary (default: built from ./cmd/agent-lsp)")
	deltasFlag = flag.Int("deltas", 20000, "text deltas the fake model streams as fast as it can")
	pacedFlag  = flag.Int("paced", 1000, "text deltas of the paced run, one every -pace")
	paceFlag   = flag.Duration("pace", 500*time.Microsecond, "the paced run's interval between deltas")
)

// stamp is how a delta carries the time the fake model wrote it.
var stamp = regexp.MustCompile(`t=(\d+);`)

// firehose is a Chat Completions endpoint streaming n text deltas as fast
// as it can (or one every pace), one flushed SSE frame each, every delta
// "t=<unix nanos>;" stamped as it is written.
type firehose struct {
	n    int
	pace time.Duration

	mu         sync.Mutex
	firstWrite time.Time
}

func (f *firehose) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rc := http.NewResponseController(w)
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	bw := bufio.NewWriter(w)
	next := time.Now()
	for i := 0; i < f.n; i++ {
		if f.pace > 0 {
			next = next.Add(f.pace)
			time.Sleep(time.Until(next)) // the behaviour under test: a model writing one delta every pace
		}
		role := ""
		if i == 0 {
			role = `"role":"assistant",`
		}
		now := time.Now()
		if i == 0 {
			f.mu.Lock()
			f.firstWrite = now
			f.mu.Unlock()
		}
		fmt.Fprintf(bw, `data: {"id":"bench","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{%s"content":"t=%d;"},"finish_reason":null}]}`+"\n\n", role, now.UnixNano())
		if bw.Flush() != nil || rc.Flush() != nil {
			return
		}
	}
	fmt.Fprint(bw, `data: {"id":"bench","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":""},"finish_reason":"stop"}],"usage":{"prompt_tokens":10,"completion_tokens":`+strconv.Itoa(f.n)+`,"total_tokens":`+strconv.Itoa(f.n+10)+`}}`+"\n\n", "data: [DONE]\n\n")
	_ = bw.Flush()
	_ = rc.Flush()
}

func (f *firehose) first() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.firstWrite
}

// relayStats are one relay's numbers.
type relayStats struct {
	deltas   int
	messages int // frames (SSE events or agent/update notifications) that carried them
	total    time.Duration
	p50, p99 time.Duration
	max      time.Duration
	cpu      time.Duration // the daemon's CPU time per delta (the sessions run)
}

// collector turns received texts into per-delta latencies.
type collector struct {
	latencies []time.Duration
	sent      []int64
	messages  int
	last      time.Time
}

func (c *collector) add(text string, at time.Time) {
	c.messages++
	c.last = at
	for _, m := range stamp.FindAllStringSubmatch(text, -1) {
		ns, _ := strconv.ParseInt(m[1], 10, 64)
		c.sent = append(c.sent, ns)
		c.latencies = append(c.latencies, at.Sub(time.Unix(0, ns)))
	}
}

func (c *collector) stats(t *testing.T, first time.Time, want int) relayStats {
	t.Helper()
	if len(c.latencies) != want {
		t.Fatalf("%d deltas arrived, want %d", len(c.latencies), want)
	}
	if !slices.IsSorted(c.sent) {
		t.Fatalf("deltas arrived out of order")
	}
	l := slices.Clone(c.latencies)
	slices.Sort(l)
	return relayStats{deltas: len(l), messages: c.messages, total: c.last.Sub(first),
		p50: l[len(l)/2], p99: l[len(l)*99/100], max: l[len(l)-1]}
}

// The fake model streams -deltas text deltas as fast as it can; the daemon
// relays them as agent/update notifications. Measured: from the fake's
// first frame (the first byte the daemon reads) to the last agent/update
// the client reads, and each delta's latency from the moment the fake wrote
// it to the moment the client read the update carrying it. The reference
// is the same stream read directly over HTTP, without the daemon. The test
// checks that every delta arrives, in order; it asserts no timings.
func TestRelayBench(t *testing.T) {
	bin := *binFlag
	if bin == "" {
		bin = filepath.Join(t.TempDir(), "agent-lsp")
		build := exec.Command("go", "build", "-o", bin, "./cmd/agent-lsp")
		build.Dir = filepath.Join("..", "..")
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("building agent-lsp: %v\n%s", err, out)
		}
	}
	var b strings.Builder
	runs := []struct {
		label string
		n     int
		pace  time.Duration
	}{
		{fmt.Sprintf("%d deltas, as fast as it can", *deltasFlag), *deltasFlag, 0},
		{fmt.Sprintf("%d deltas, one every %v", *pacedFlag, *paceFlag), *pacedFlag, *paceFlag},
	}
	for _, r := range runs {
		direct := relayDirect(t, &firehose{n: r.n, pace: r.pace})
		viaDaemon := relayThroughDaemon(t, bin, &firehose{n: r.n, pace: r.pace})
		fmt.Fprintf(&b, "relay: %-34s agent-lsp  direct HTTP   ratio  target\n", r.label)
		row := func(label string, a, d time.Duration, target string) {
			fmt.Fprintf(&b, "  %-38s %10s %12s %7.1f  %s\n", label, round(a), round(d), float64(a)/float64(max(d, 1)), target)
		}
		row("first byte → last update", viaDaemon.total, direct.total, "")
		row("per-delta latency p50", viaDaemon.p50, direct.p50, "")
		row("per-delta latency p99", viaDaemon.p99, direct.p99, "< 5 ms")
		row("per-delta latency max", viaDaemon.max, direct.max, "")
		fmt.Fprintf(&b, "  %-38s %10d %12d\n", "messages carrying them", viaDaemon.messages, direct.messages)
	}
	t.Log("\n" + b.String())
}

func round(d time.Duration) string {
	switch {
	case d >= time.Second:
		return d.Round(time.Millisecond).String()
	case d >= time.Millisecond:
		return d.Round(10 * time.Microsecond).String()
	}
	return d.Round(time.Microsecond).String()
}

// relayDirect reads the firehose with a plain HTTP client: the floor.
func relayDirect(t *testing.T, fh *firehose) relayStats {
	t.Helper()
	srv := httptest.NewServer(fh)
	defer srv.Close()
	resp, err := http.Post(srv.URL+"/chat/completions", "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var c collector
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if line, ok := strings.CutPrefix(sc.Text(), "data: "); ok && line != "[DONE]" {
			var chunk struct {
				Choices []struct {
					Delta struct {
						Content string `json:"content"`
					} `json:"delta"`
				} `json:"choices"`
			}
			if err := json.Unmarshal([]byte(line), &chunk); err != nil {
				t.Fatal(err)
			}
			if len(chunk.Choices) > 0 && chunk.Choices[0].Delta.Content != "" {
				c.add(chunk.Choices[0].Delta.Content, time.Now())
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return c.stats(t, fh.first(), fh.n)
}

// relayThroughDaemon runs one prompt against the firehose through the
// daemon and reads its agent/update notifications.
func relayThroughDaemon(t *testing.T, bin string, fh *firehose) relayStats {
	t.Helper()
	n := fh.n
	srv := httptest.NewServer(fh)
	defer srv.Close()

	var mu sync.Mutex
	var c collector
	onNotify := func(m lspclient.Message, at time.Time) {
		if m.Method != "agent/update" {
			return
		}
		var u struct {
			Kind string `json:"kind"`
			Text string `json:"text"`
		}
		if err := json.Unmarshal(m.Params, &u); err == nil && u.Kind == "text" {
			mu.Lock()
			c.add(u.Text, at)
			mu.Unlock()
		}
	}
	client, ctx := startRelayDaemon(t, bin, srv.URL, 2*time.Minute, onNotify)
	raw, err := client.Call(ctx, "agent/prompt", map[string]any{"prompt": "Stream."})
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		StopReason string `json:"stopReason"`
		Text       string `json:"text"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		t.Fatal(err)
	}
	if res.StopReason != "end_turn" || len(stamp.FindAllString(res.Text, -1)) != n {
		t.Fatalf("prompt ended %q with %d stamped deltas in its text", res.StopReason, len(stamp.FindAllString(res.Text, -1)))
	}
	mu.Lock()
	defer mu.Unlock()
	return c.stats(t, fh.first(), n)
}

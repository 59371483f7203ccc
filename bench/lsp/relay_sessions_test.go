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
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agent-lsp/agent-lsp/bench/lspclient"
	"github.com/agent-lsp/agent-lsp/bench/procstat"
)

var (
	sessionsFlag = flag.String("sessions", "1,10,50", "concurrent sessions of the sessions run, comma-separated")
	rateFlag     = flag.Int("rate", 2500, "deltas per second each session's model streams")
	perFlag      = flag.Int("per-session", 2500, "deltas each session's model streams")
	repeatFlag   = flag.Int("repeat", 3, "runs of each sessions count: the median p99 is printed")
	peerBinFlag  = flag.String("peer-bin", "", "another agent-lsp (an earlier build) measured in the same runs")
)

// TestRelaySessionsBench: from 1 to 50 sessions prompting at once, each
// session's model streaming -rate deltas a second, the daemon's per-delta
// p99 against as many direct HTTP readers of the same streams in the same
// run (issue 27: within 1.2×). Each count runs -repeat times, direct and
// daemon alternating, and the medians are printed: the machine is shared.
func TestRelaySessionsBench(t *testing.T) {
	bin := relayBinary(t)
	pace := time.Second / time.Duration(*rateFlag)
	bins := []string{bin}
	if *peerBinFlag != "" {
		bins = append(bins, *peerBinFlag)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "relay: %d deltas per session at %d/s, median of %d runs\n", *perFlag, *rateFlag, max(*repeatFlag, 1))
	fmt.Fprintf(&b, "  %-12s %-10s %9s %9s %9s %12s  %s\n", "sessions", "reader", "p50", "p99", "p99 ratio", "CPU/delta", "target")
	for _, field := range strings.Split(*sessionsFlag, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(field))
		if err != nil || n < 1 {
			t.Fatalf("-sessions %q", *sessionsFlag)
		}
		var direct []relayStats
		daemons := make([][]relayStats, len(bins))
		for range max(*repeatFlag, 1) {
			direct = append(direct, relayDirectSessions(t, n, &firehose{n: *perFlag, pace: pace}))
			for i, bin := range bins {
				daemons[i] = append(daemons[i], relaySessionsThroughDaemon(t, bin, n, &firehose{n: *perFlag, pace: pace}))
			}
		}
		r := medianStats(direct)
		fmt.Fprintf(&b, "  %-12d %-10s %9s %9s\n", n, "direct", round(r.p50), round(r.p99))
		for i, runs := range daemons {
			d := medianStats(runs)
			label := "agent-lsp"
			if i > 0 {
				label = "peer build"
			}
			fmt.Fprintf(&b, "  %-12s %-10s %9s %9s %9.2f %12s  ≤ 1.2\n", "", label, round(d.p50), round(d.p99),
				float64(d.p99)/float64(max(r.p99, 1)), round(d.cpu))
		}
	}
	fmt.Fprintln(&b, "CPU/delta: the daemon's CPU time (its threads' schedstat) from initialize's answer to the last prompt's, per delta")
	t.Log("\n" + b.String())
}

// relayBinary is -bin, or agent-lsp built for the test.
func relayBinary(t *testing.T) string {
	if *binFlag != "" {
		return *binFlag
	}
	bin := filepath.Join(t.TempDir(), "agent-lsp")
	build := exec.Command("go", "build", "-o", bin, "./cmd/agent-lsp")
	build.Dir = filepath.Join("..", "..")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building agent-lsp: %v\n%s", err, out)
	}
	return bin
}

// medianStats is the runs' median p50 and p99.
func medianStats(runs []relayStats) relayStats {
	pick := func(get func(relayStats) time.Duration) time.Duration {
		v := make([]time.Duration, len(runs))
		for i, r := range runs {
			v[i] = get(r)
		}
		slices.Sort(v)
		return v[len(v)/2]
	}
	return relayStats{p50: pick(func(r relayStats) time.Duration { return r.p50 }),
		p99: pick(func(r relayStats) time.Duration { return r.p99 }),
		cpu: pick(func(r relayStats) time.Duration { return r.cpu })}
}

// pooled merges the sessions' latencies (each session's in order).
func pooled(t *testing.T, cs []*collector, perSession int) relayStats {
	t.Helper()
	var all []time.Duration
	for i, c := range cs {
		if len(c.latencies) != perSession || !slices.IsSorted(c.sent) {
			t.Fatalf("session %d: %d deltas arrived (in order: %v), want %d", i, len(c.latencies), slices.IsSorted(c.sent), perSession)
		}
		all = append(all, c.latencies...)
	}
	slices.Sort(all)
	return relayStats{deltas: len(all), p50: all[len(all)/2], p99: all[len(all)*99/100], max: all[len(all)-1]}
}

// relayDirectSessions reads n streams of the firehose at once over HTTP.
func relayDirectSessions(t *testing.T, n int, fh *firehose) relayStats {
	t.Helper()
	srv := httptest.NewServer(fh)
	defer srv.Close()
	cs := make([]*collector, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		cs[i] = &collector{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = readFirehose(srv.URL, cs[i])
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	return pooled(t, cs, fh.n)
}

// readFirehose reads one stream as a plain client does: line by line,
// each event's JSON decoded.
func readFirehose(url string, c *collector) error {
	resp, err := http.Post(url+"/chat/completions", "application/json", strings.NewReader("{}"))
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok || line == "[DONE]" {
			continue
		}
		var chunk struct {
			Choices []struct {
				Delta struct {
					Content string `json:"content"`
				} `json:"delta"`
			} `json:"choices"`
		}
		if err := json.Unmarshal([]byte(line), &chunk); err != nil {
			return err
		}
		if len(chunk.Choices) > 0 && chunk.Choices[0].Delta.Content != "" {
			c.add(chunk.Choices[0].Delta.Content, time.Now())
		}
	}
	return sc.Err()
}

// relaySessionsThroughDaemon prompts n sessions of one daemon at once,
// each answered by its own stream of the firehose, and reads their
// agent/update notifications.
func relaySessionsThroughDaemon(t *testing.T, bin string, n int, fh *firehose) relayStats {
	t.Helper()
	srv := httptest.NewServer(fh)
	defer srv.Close()
	var mu sync.Mutex
	bySession := map[string]*collector{}
	onNotify := func(m lspclient.Message, at time.Time) {
		if m.Method != "agent/update" {
			return
		}
		var u struct {
			SessionID string `json:"sessionId"`
			Kind      string `json:"kind"`
			Text      string `json:"text"`
		}
		if err := json.Unmarshal(m.Params, &u); err == nil && u.Kind == "text" {
			mu.Lock()
			if c := bySession[u.SessionID]; c != nil {
				c.add(u.Text, at)
			}
			mu.Unlock()
		}
	}
	client, ctx := startRelayDaemon(t, bin, srv.URL, 5*time.Minute, onNotify)
	cpu0, err := procstat.CPUTime(client.Pid())
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]string, n)
	cs := make([]*collector, n)
	for i := range n {
		raw, err := client.Call(ctx, "agent/newSession", map[string]any{"title": fmt.Sprintf("relay %d", i)})
		if err != nil {
			t.Fatal(err)
		}
		var res struct {
			SessionID string `json:"sessionId"`
		}
		if err := json.Unmarshal(raw, &res); err != nil || res.SessionID == "" {
			t.Fatalf("agent/newSession: %s (%v)", raw, err)
		}
		ids[i], cs[i] = res.SessionID, &collector{}
		mu.Lock()
		bySession[res.SessionID] = cs[i]
		mu.Unlock()
	}
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = client.Call(ctx, "agent/prompt", map[string]any{"sessionId": ids[i], "prompt": "Stream."})
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	cpu1, err := procstat.CPUTime(client.Pid())
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	st := pooled(t, cs, fh.n)
	st.cpu = (cpu1 - cpu0) / time.Duration(n*fh.n)
	return st
}

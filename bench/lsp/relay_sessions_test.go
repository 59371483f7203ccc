package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
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
	repeatFlag   = flag.Int("repeat", 5, "runs of each sessions count: the median p99 is printed")
	peerBinFlag  = flag.String("peer-bin", "", "another agent-lsp (an earlier build) measured in the same runs")
)

// TestRelaySessionsBench: from 1 to 50 sessions prompting at once, each
// session's model streaming -rate deltas a second, the daemon's per-delta
// p99 against two references reading the same streams in the same run
// (issue 27: within 1.2×): a direct HTTP reader in this process, the floor
// of reading a stream at all, and curl -N relaying each stream to a pipe,
// the floor of any relay that is a separate process (the daemon's path:
// the model's socket, another process, a pipe to the editor). Each count
// runs -repeat times, the readers interleaved, and the medians are
// printed: the machine is shared.
func TestRelaySessionsBench(t *testing.T) {
	if *binFlag == "" {
		smokeRun(t)
	}
	bin := relayBinary(t)
	pace := time.Second / time.Duration(*rateFlag)
	bins := []string{bin}
	if *peerBinFlag != "" {
		bins = append(bins, *peerBinFlag)
	}
	curl, err := exec.LookPath("curl")
	if err != nil {
		t.Log("curl not found: its reference row is skipped")
	}
	var b strings.Builder
	fmt.Fprintf(&b, "relay: %d deltas per session at %d/s, median of %d runs\n", *perFlag, *rateFlag, max(*repeatFlag, 1))
	fmt.Fprintf(&b, "  %-9s %-11s %9s %9s %11s %9s %11s  %s\n", "sessions", "reader", "p50", "p99", "÷ in-proc", "÷ curl", "CPU/delta", "target")
	for _, field := range strings.Split(*sessionsFlag, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(field))
		if err != nil || n < 1 {
			t.Fatalf("-sessions %q", *sessionsFlag)
		}
		var direct, curled []relayStats
		daemons := make([][]relayStats, len(bins))
		vsCurl := make([][]float64, len(bins)) // each round's daemon p99 ÷ that round's curl p99
		for k := range max(*repeatFlag, 1) {
			// The order alternates by round, so a drift in the machine's
			// load does not always land on the same reader.
			readers := []func(){
				func() { direct = append(direct, relayDirectSessions(t, n, &firehose{n: *perFlag, pace: pace})) },
				func() {
					if curl != "" {
						curled = append(curled, relayCurlSessions(t, curl, n, &firehose{n: *perFlag, pace: pace}))
					}
				},
				func() {
					for i, bin := range bins {
						daemons[i] = append(daemons[i], relaySessionsThroughDaemon(t, bin, n, &firehose{n: *perFlag, pace: pace}))
					}
				},
			}
			if k%2 == 1 {
				slices.Reverse(readers)
			}
			for _, read := range readers {
				read()
			}
			if curl != "" {
				for i := range bins {
					vsCurl[i] = append(vsCurl[i], ratio(daemons[i][k].p99, curled[k].p99))
				}
			}
		}
		r := medianStats(direct)
		fmt.Fprintf(&b, "  %-9d %-11s %9s %9s\n", n, "in-process", round(r.p50), round(r.p99))
		if curl != "" {
			c := medianStats(curled)
			fmt.Fprintf(&b, "  %-9s %-11s %9s %9s %11.2f\n", "", "curl -N", round(c.p50), round(c.p99), ratio(c.p99, r.p99))
		}
		for i, runs := range daemons {
			d := medianStats(runs)
			label := "agent-lsp"
			if i > 0 {
				label = "peer build"
			}
			byCurl := "-"
			if curl != "" {
				byCurl = fmt.Sprintf("%.2f", median(vsCurl[i]))
			}
			fmt.Fprintf(&b, "  %-9s %-11s %9s %9s %11.2f %9s %11s  ≤ 1.2\n", "", label, round(d.p50), round(d.p99),
				ratio(d.p99, r.p99), byCurl, round(d.cpu))
		}
	}
	fmt.Fprintln(&b, "÷ curl: the median of each round's p99 ratio (curl and the daemon read in the same round, back to back)")
	fmt.Fprintln(&b, "CPU/delta: the daemon's CPU time (its threads' schedstat) from initialize's answer to the last prompt's, per delta")
	t.Log("\n" + b.String())
}

func ratio(a, b time.Duration) float64 { return float64(a) / float64(max(b, 1)) }

func median(v []float64) float64 {
	v = slices.Clone(v)
	slices.Sort(v)
	return v[len(v)/2]
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
	return readSessions(t, n, fh, readFirehose)
}

// readSessions reads n streams of the firehose at once, each with read
// on its own goroutine, and pools their latencies.
func readSessions(t *testing.T, n int, fh *firehose, read func(url string, c *collector) error) relayStats {
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
			errs[i] = read(srv.URL, cs[i])
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
	return scanFirehose(resp.Body, c)
}

// scanFirehose reads the firehose's SSE events from r, each event's JSON
// decoded, and collects the deltas with the time each was read.
func scanFirehose(r io.Reader, c *collector) error {
	sc := bufio.NewScanner(r)
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

// relayCurlSessions reads n streams of the firehose at once, each through
// its own curl process relaying the stream to a pipe as it arrives (-N):
// the same path as the daemon's (the model's socket, another process, a
// pipe to this one) with nothing done in between, the floor of any relay
// that is a separate process.
func relayCurlSessions(t *testing.T, curl string, n int, fh *firehose) relayStats {
	t.Helper()
	return readSessions(t, n, fh, func(url string, c *collector) error {
		cmd := exec.Command(curl, "--silent", "--show-error", "--no-buffer", "--data", "{}", url+"/chat/completions")
		cmd.Stderr = os.Stderr
		out, err := cmd.StdoutPipe()
		if err != nil {
			return err
		}
		if err := cmd.Start(); err != nil {
			return err
		}
		err = scanFirehose(out, c)
		return errors.Join(err, cmd.Wait())
	})
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

// smokeRun shrinks the run to a check that every reader and the daemon
// deliver every delta, in order, when the suite runs this test without
// -bin (go test ./...: CI): the full run, with its numbers, is
// bench/lsp/run.sh's, which passes -bin. Flags given on the command line
// are kept.
func smokeRun(t *testing.T) {
	set := map[string]bool{}
	flag.Visit(func(f *flag.Flag) { set[f.Name] = true })
	for name, value := range map[string]string{"sessions": "1,3", "per-session": "300", "repeat": "1"} {
		if !set[name] {
			if err := flag.Set(name, value); err != nil {
				t.Fatal(err)
			}
		}
	}
}

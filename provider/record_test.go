package provider

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// scriptedServer answers the Nth request with the Nth handler.
func scriptedServer(t *testing.T, script ...http.HandlerFunc) string {
	t.Helper()
	srv, _ := countingServer(t, func(n int, w http.ResponseWriter, r *http.Request) {
		if n > len(script) {
			t.Errorf("request %d beyond the script", n)
			http.Error(w, "no more", http.StatusTeapot)
			return
		}
		script[n-1](w, r)
	})
	return srv.URL
}

func readRecords(t *testing.T, path string) []record {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []record
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var r record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("line %q is not a record: %v", sc.Text(), err)
		}
		out = append(out, r)
	}
	return out
}

func TestRecordFormat(t *testing.T) {
	url := scriptedServer(t, func(w http.ResponseWriter, _ *http.Request) { writeFrames(w, frameHi, frameDone) })
	path := filepath.Join(t.TempDir(), "rec.jsonl")
	rec, err := OpenRecorder(path)
	if err != nil {
		t.Fatal(err)
	}
	p := newTestHTTP(t, url, func(o *HTTPOptions) { o.Recorder = rec })
	collect(t, p.Stream(context.Background(), testRequest))
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	var kinds []string
	records := readRecords(t, path)
	for _, r := range records {
		k := r.Kind
		if r.Line != nil {
			k += ":" + *r.Line
		}
		if r.Seq != 1 || (r.Kind != "request" && r.MS == nil) {
			t.Errorf("record %+v: want seq 1 and a time", r)
		}
		kinds = append(kinds, k)
	}
	want := "request response line:data: " + frameHi + " line: line:data: " + frameDone + " line: end"
	if strings.Join(kinds, " ") != want {
		t.Errorf("records:\n%s\nwant\n%s", strings.Join(kinds, " "), want)
	}
	if string(records[0].Body) != `{"messages":1,"model":"m"}` || records[0].Dialect != "test" || records[0].Path != "/v1/test" {
		t.Errorf("request record %+v", records[0])
	}
	if records[1].Status != 200 || records[len(records)-1].Attempts != 1 || records[len(records)-1].Error != "" {
		t.Errorf("response %+v, end %+v", records[1], records[len(records)-1])
	}
	if info, err := os.Stat(path); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("recording mode %v (%v); want 0600", info.Mode(), err)
	}
}

func TestRecordNeverHoldsTheKey(t *testing.T) {
	// The server echoes the key everywhere it can; the dialect's encoder
	// puts it in the body too (a bug the recorder must still contain).
	url := scriptedServer(t,
		func(w http.ResponseWriter, _ *http.Request) {
			http.Error(w, "bad key "+testKey, http.StatusServiceUnavailable)
		},
		func(w http.ResponseWriter, _ *http.Request) {
			writeFrames(w, `{"t":"text","v":"your key is `+testKey+`"}`, frameDone)
		})
	var buf bytes.Buffer
	rec := NewRecorder(&buf)
	var sl sleepLog
	p := newTestHTTP(t, url, func(o *HTTPOptions) { o.Recorder = rec; o.Sleep = sl.sleep; o.Dialect = leakyDialect{} })
	collect(t, p.Stream(context.Background(), testRequest))
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if strings.Contains(out, testKey) || strings.Contains(strings.ToLower(out), "authorization") || strings.Contains(out, "Bearer") {
		t.Fatalf("the recording holds the key or a header:\n%s", out)
	}
	if n := strings.Count(out, redacted); n != 4 {
		t.Errorf("%d redactions, want 4 (body, error answer, retry reason, SSE line):\n%s", n, out)
	}
	if !strings.Contains(out, `"kind":"retry"`) || !strings.Contains(out, `"status":503`) {
		t.Errorf("the failed attempt is not recorded:\n%s", out)
	}
}

// leakyDialect writes the key into the body, as a buggy dialect might.
type leakyDialect struct{ testDialect }

func (leakyDialect) Encode(Request) ([]byte, error) {
	return []byte(`{"oops":"` + testKey + `"}`), nil
}

func TestRecordThenReplay(t *testing.T) {
	url := scriptedServer(t,
		// 1: a plain answer
		func(w http.ResponseWriter, _ *http.Request) {
			writeFrames(w, frameHi, `{"t":"text","v":"!"}`, frameDone)
		},
		// 2: overloaded, then an answer
		func(w http.ResponseWriter, _ *http.Request) { http.Error(w, "busy", 529) },
		func(w http.ResponseWriter, _ *http.Request) { writeFrames(w, frameHi, frameDone) },
		// 3: a final client error
		func(w http.ResponseWriter, _ *http.Request) {
			http.Error(w, `{"error":"too long"}`, http.StatusBadRequest)
		},
		// 4: a drop after an event
		func(w http.ResponseWriter, _ *http.Request) { writeFrames(w, frameHi); panic(http.ErrAbortHandler) },
		// 5: a server error event
		func(w http.ResponseWriter, _ *http.Request) { writeFrames(w, `{"t":"error","v":"nope"}`) },
	)
	path := filepath.Join(t.TempDir(), "rec.jsonl")
	rec, err := OpenRecorder(path)
	if err != nil {
		t.Fatal(err)
	}
	var sl sleepLog
	p := newTestHTTP(t, url, func(o *HTTPOptions) { o.Recorder = rec; o.Sleep = sl.sleep })
	var live []string
	for range 5 {
		live = append(live, describe(collect(t, p.Stream(context.Background(), testRequest))))
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}

	replay, err := NewReplay(path, testDialect{})
	if err != nil {
		t.Fatal(err)
	}
	if replay.Len() != 5 {
		t.Fatalf("%d exchanges, want 5", replay.Len())
	}
	for i, want := range live {
		events := collect(t, replay.Stream(context.Background(), testRequest))
		if got := describe(events); got != want {
			t.Errorf("exchange %d replays as\n%s\nlive it was\n%s", i+1, got, want)
		}
		if i == 2 {
			var herr *HTTPError
			if !errors.As(events[0].Err, &herr) || herr.Status != 400 {
				t.Errorf("exchange 3 replays %v, want an *HTTPError 400", events[0].Err)
			}
		}
	}
	exhausted := describe(collect(t, replay.Stream(context.Background(), testRequest)))
	if exhausted != "failure:replay exhausted after 5 exchanges" {
		t.Errorf("after the recording: %s", exhausted)
	}
	t.Logf("live answers: %q", live)
}

func TestRecorderConcurrentExchanges(t *testing.T) {
	srv, _ := countingServer(t, func(_ int, w http.ResponseWriter, _ *http.Request) {
		writeFrames(w, frameHi, frameHi, frameHi, frameDone)
	})
	var buf bytes.Buffer
	rec := NewRecorder(&syncWriter{w: &buf})
	p := newTestHTTP(t, srv.URL, func(o *HTTPOptions) { o.Recorder = rec })
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range p.Stream(context.Background(), testRequest) {
			}
		})
	}
	wg.Wait()
	ends := map[int64]int{}
	lines := map[int64]int{}
	for l := range strings.Lines(buf.String()) {
		var r record
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatalf("interleaved or broken record %q: %v", l, err)
		}
		switch r.Kind {
		case "end":
			ends[r.Seq]++
		case "line":
			lines[r.Seq]++
		}
	}
	for seq := int64(1); seq <= 8; seq++ {
		if ends[seq] != 1 || lines[seq] != 8 {
			t.Errorf("exchange %d: %d ends, %d lines; want 1 and 8", seq, ends[seq], lines[seq])
		}
	}
}

// syncWriter lets the test read the buffer under -race; the recorder
// itself serialises writes.
type syncWriter struct {
	mu sync.Mutex
	w  *bytes.Buffer
}

func (s *syncWriter) Write(b []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(b)
}

func TestReplayErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	tests := []struct{ name, content, want string }{
		{"unknown dialect", `{"kind":"request","seq":1,"dialect":"openai","body":{}}`,
			`recording uses dialect "openai", which was not given`},
		{"broken json", "{nope", "line 1: invalid character"},
		{"orphan record", `{"kind":"line","seq":3,"line":"x"}`, `"line" record of exchange 3 before its request`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewReplay(write(tt.name, tt.content), testDialect{})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want it to say %q", err, tt.want)
			}
		})
	}
	if _, err := NewReplay(filepath.Join(dir, "missing.jsonl")); err == nil {
		t.Error("a missing file loads")
	}
}

func TestReplayHonoursCancellation(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.jsonl")
	content := `{"kind":"request","seq":1,"dialect":"test","body":{}}
{"kind":"response","seq":1,"status":200}
{"kind":"line","seq":1,"line":"data: {\"t\":\"text\",\"v\":\"a\"}"}
{"kind":"line","seq":1,"line":""}
{"kind":"line","seq":1,"line":"data: {\"t\":\"text\",\"v\":\"b\"}"}
{"kind":"line","seq":1,"line":""}
{"kind":"end","seq":1,"attempts":1}
`
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	replay, err := NewReplay(path, testDialect{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var events []Event
	for e := range replay.Stream(ctx, testRequest) {
		events = append(events, e)
		cancel()
	}
	if got := describe(events); got != "text:a failure:model API request cancelled: context canceled" {
		t.Errorf("events %s", got)
	}
}

// Redact rewrites every record and every dumped line: the front end's
// other secrets (a token the conversation carries, one the model echoes)
// never reach the recording or the raw dump, and both stay well-formed.
func TestRecordAndRawDumpPassTheRedactor(t *testing.T) {
	const other = "ghp-other-secret-0042"
	url := scriptedServer(t, func(w http.ResponseWriter, _ *http.Request) {
		writeFrames(w, `{"t":"text","v":"the token is `+other+` and the key `+testKey+`"}`, frameDone)
	})
	var buf, dump bytes.Buffer
	rec := NewRecorder(&buf)
	redact := func(s string) string { return strings.ReplaceAll(s, other, "[GONE]") }
	p := newTestHTTP(t, url, func(o *HTTPOptions) {
		o.Recorder, o.RawDump, o.Redact = rec, &dump, redact
		o.Dialect = echoDialect{body: `{"history":"` + other + `"}`}
	})
	collect(t, p.Stream(context.Background(), testRequest))
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"recording": buf.String(), "raw dump": dump.String()} {
		if strings.Contains(out, other) || strings.Contains(out, testKey) {
			t.Errorf("the %s holds a secret:\n%s", name, out)
		}
		if !strings.Contains(out, "[GONE]") {
			t.Errorf("the %s was not redacted:\n%s", name, out)
		}
	}
	if n := strings.Count(buf.String(), "[GONE]"); n != 2 {
		t.Errorf("%d redactions in the recording, want 2 (request body, SSE line):\n%s", n, buf.String())
	}
	sc := bufio.NewScanner(&buf)
	for sc.Scan() {
		if !json.Valid(sc.Bytes()) {
			t.Errorf("record %q is not JSON", sc.Text())
		}
	}
}

// echoDialect encodes every request as body.
type echoDialect struct {
	testDialect
	body string
}

func (d echoDialect) Encode(Request) ([]byte, error) { return []byte(d.body), nil }

package lsp

import (
	"encoding/json"
	"errors"
	"io"
	"net/textproto"
	"strconv"
	"testing"
	"time"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/provider"
)

// A retry event becomes a retry update: the attempt to come, the limit,
// the wait in milliseconds and why the previous attempt failed.
func TestRetryEventIsARetryUpdate(t *testing.T) {
	l, ed := newBlockingListener(t)
	err := errors.New("model API answered 529 Overloaded")
	go l.OnEvent(agent.Event{Kind: agent.EventRetry, Round: 1, Err: err,
		Retry: provider.Retry{Attempt: 2, Max: 4, Delay: 1500 * time.Millisecond, Err: err}})
	tp := textproto.NewReader(ed.r)
	hdr, rerr := tp.ReadMIMEHeader()
	if rerr != nil {
		t.Fatal(rerr)
	}
	n, _ := strconv.Atoi(hdr.Get("Content-Length"))
	body := make([]byte, n)
	if _, rerr := io.ReadFull(ed.r, body); rerr != nil {
		t.Fatal(rerr)
	}
	var msg struct {
		Method string         `json:"method"`
		Params map[string]any `json:"params"`
	}
	if rerr := json.Unmarshal(body, &msg); rerr != nil || msg.Method != "agent/update" {
		t.Fatalf("frame %s (%v)", body, rerr)
	}
	p := msg.Params
	if p["kind"] != "retry" || p["attempt"] != 2.0 || p["maxAttempts"] != 4.0 || p["delayMs"] != 1500.0 ||
		p["message"] != err.Error() || p["sessionId"] != "s1" || p["seq"] != 1.0 {
		t.Errorf("update = %v", p)
	}
}

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
	"github.com/agent-lsp/agent-lsp/agent/control"
	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/tools"
)

// rawParams reads one agent/update notification and returns its params as
// the bytes on the wire.
func (e blockingEditor) rawParams() string {
	e.t.Helper()
	hdr, err := textproto.NewReader(e.r).ReadMIMEHeader()
	if err != nil {
		e.t.Fatalf("reading a frame header: %v", err)
	}
	n, err := strconv.Atoi(hdr.Get("Content-Length"))
	if err != nil {
		e.t.Fatalf("Content-Length %q: %v", hdr.Get("Content-Length"), err)
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(e.r, body); err != nil {
		e.t.Fatalf("reading a frame body: %v", err)
	}
	var msg struct {
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
	}
	if err := json.Unmarshal(body, &msg); err != nil || msg.Method != "agent/update" {
		e.t.Fatalf("frame %s (%v)", body, err)
	}
	return string(msg.Params)
}

// Every kind of agent/update, as its event or control update makes it,
// is these bytes: the header (sessionId, seq, kind) first, then the kind's
// fields in this order and with these names. docs/protocol.md documents
// the same fields; a client reads them by name, and the order is what
// every earlier release sent.
func TestEveryUpdateKindsFieldsAndOrder(t *testing.T) {
	l, ed := newBlockingListener(t)
	l.s.sessions = newSessionStore(l.s)
	l.sess = l.s.sessions.view("s1") // control updates number through the same view
	totals := agent.Totals{Usage: provider.Usage{PromptTokens: 30, CompletionTokens: 12, CachedTokens: 4}, Cost: 0.25, Calls: 2}
	usage := provider.Usage{PromptTokens: 20, CompletionTokens: 7, CachedTokens: 2}
	fail := errors.New("model API answered 529 Overloaded")
	cases := []struct {
		send func()
		want string
	}{
		{func() { l.OnEvent(agent.Event{Kind: agent.EventText, Text: "Hello"}) },
			`{"sessionId":"s1","seq":1,"kind":"text","text":"Hello"}`},
		{func() { l.OnEvent(agent.Event{Kind: agent.EventReasoning, Text: "Hmm"}) },
			`{"sessionId":"s1","seq":2,"kind":"reasoning","text":"Hmm"}`},
		{func() {
			l.OnEvent(agent.Event{Kind: agent.EventToolCall, ToolCallID: "call_1", ToolName: "read_file", Arguments: json.RawMessage(`{"path":"a.go"}`)})
		}, `{"sessionId":"s1","seq":3,"kind":"tool_call","toolCallId":"call_1","name":"read_file","arguments":{"path":"a.go"}}`},
		{func() {
			l.OnEvent(agent.Event{Kind: agent.EventToolResult, ToolCallID: "call_1", ToolName: "read_file", Status: tools.Status("ok"), Output: "package a"})
		}, `{"sessionId":"s1","seq":4,"kind":"tool_result","toolCallId":"call_1","name":"read_file","status":"ok","output":"package a"}`},
		{func() {
			l.OnEvent(agent.Event{Kind: agent.EventRoundEnd, ModelStop: "end_turn", Usage: usage, Cost: 0.125, Totals: totals})
		}, `{"sessionId":"s1","seq":5,"kind":"round_end","stopReason":"end_turn","usage":{"promptTokens":20,"completionTokens":7,"cachedTokens":2},"cost":0.125,"costKnown":true,"totals":{"promptTokens":30,"completionTokens":12,"cachedTokens":4,"cost":0.25,"costKnown":true}}`},
		{func() {
			l.OnEvent(agent.Event{Kind: agent.EventRoundEnd, ModelStop: "tool_calls", Usage: usage, CostUnknown: true,
				Totals: agent.Totals{Usage: usage, Calls: 1, Unpriced: 1}})
		}, `{"sessionId":"s1","seq":6,"kind":"round_end","stopReason":"tool_calls","usage":{"promptTokens":20,"completionTokens":7,"cachedTokens":2},"costKnown":false,"totals":{"promptTokens":20,"completionTokens":7,"cachedTokens":2,"costKnown":false}}`},
		{func() {
			l.OnEvent(agent.Event{Kind: agent.EventCompacted, BeforeTokens: 9000, AfterTokens: 1200, Cost: 0.5, Totals: totals})
		}, `{"sessionId":"s1","seq":7,"kind":"compacted","beforeTokens":9000,"afterTokens":1200,"cost":0.5,"costKnown":true,"totals":{"promptTokens":30,"completionTokens":12,"cachedTokens":4,"cost":0.25,"costKnown":true}}`},
		{func() {
			l.OnEvent(agent.Event{Kind: agent.EventRetry, Err: fail, Retry: provider.Retry{Attempt: 2, Max: 4, Delay: 1500 * time.Millisecond, Err: fail}})
		}, `{"sessionId":"s1","seq":8,"kind":"retry","attempt":2,"maxAttempts":4,"delayMs":1500,"message":"model API answered 529 Overloaded"}`},
		{func() { l.OnEvent(agent.Event{Kind: agent.EventError, Err: fail}) },
			`{"sessionId":"s1","seq":9,"kind":"error","message":"model API answered 529 Overloaded"}`},
		{func() {
			l.s.sendControl(control.Update{SessionID: "s1", Kind: control.UpdateMode, Mode: agent.Mode("plan")})
		},
			`{"sessionId":"s1","seq":10,"kind":"mode","mode":"plan"}`},
		{func() {
			l.s.sendControl(control.Update{SessionID: "s1", Kind: control.UpdateModel, Model: control.ModelInfo{Provider: "openai", Model: "gpt-x", BaseURL: "http://127.0.0.1:1/v1"},
				Message: "the stored model could not be reached"})
		}, `{"sessionId":"s1","seq":11,"kind":"model","provider":"openai","model":"gpt-x","baseURL":"http://127.0.0.1:1/v1","message":"the stored model could not be reached"}`},
		{func() {
			l.s.sendControl(control.Update{SessionID: "s1", Kind: control.UpdateModel, Model: control.ModelInfo{Provider: "anthropic", Model: "claude-x", BaseURL: ""}})
		}, `{"sessionId":"s1","seq":12,"kind":"model","provider":"anthropic","model":"claude-x","baseURL":""}`},
		{func() {
			l.s.sendControl(control.Update{SessionID: "s1", Kind: control.UpdatePlan, Plan: []tools.TodoItem{{Content: "Read main.go", Status: "in_progress"}}})
		}, `{"sessionId":"s1","seq":13,"kind":"plan","items":[{"content":"Read main.go","status":"in_progress"}]}`},
		{func() { l.s.sendControl(control.Update{SessionID: "s1", Kind: control.UpdatePlan}) },
			`{"sessionId":"s1","seq":14,"kind":"plan","items":[]}`},
		{func() {
			l.s.sendControl(control.Update{SessionID: "s1", Kind: control.UpdateMention, Mention: agent.MentionReport{Path: "a.go", StartLine: 3, EndLine: 9, Status: "attached"}})
		}, `{"sessionId":"s1","seq":15,"kind":"mention","path":"a.go","startLine":3,"endLine":9,"status":"attached"}`},
		{func() {
			l.s.sendControl(control.Update{SessionID: "s1", Kind: control.UpdateMention, Mention: agent.MentionReport{Path: "b.go", Status: "refused", Message: "outside the workspace"}})
		}, `{"sessionId":"s1","seq":16,"kind":"mention","path":"b.go","status":"refused","message":"outside the workspace"}`},
		{func() {
			l.s.sendControl(control.Update{SessionID: "s1", Kind: control.UpdateQueue, Queue: []control.QueueItem{{ID: "q1", Prompt: "then this", Delivery: control.DeliverQueue}}})
		}, `{"sessionId":"s1","seq":17,"kind":"queue","items":[{"id":"q1","prompt":"then this","delivery":"queue"}]}`},
		{func() { l.s.sendControl(control.Update{SessionID: "s1", Kind: control.UpdateQueue}) },
			`{"sessionId":"s1","seq":18,"kind":"queue","items":[]}`},
		{func() { l.OnEvent(agent.Event{Kind: agent.EventSteer, SteerID: "q2", Text: "also check the tests"}) },
			`{"sessionId":"s1","seq":19,"kind":"steer","id":"q2","prompt":"also check the tests"}`},
	}
	for _, c := range cases {
		go c.send() // the write blocks until the editor reads it
		if got := ed.rawParams(); got != c.want {
			t.Errorf("agent/update\n got %s\nwant %s", got, c.want)
		}
	}
}

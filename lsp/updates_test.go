package lsp_test

import (
	"context"
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/agent-lsp/agent-lsp/lsp/lsptest"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// Coalesced text is still sent while the model is silent: a delta waits
// at most 50 ms, not until the next event.
func TestCoalescedTextIsFlushedWhileTheModelStalls(t *testing.T) {
	script := providertest.Script{{Text: "Hello, world. More after a pause.",
		Fault: &providertest.Fault{Stall: 3 * time.Second, StallAfterFrames: 4}}}
	s := start(t, script, setupOptions{caps: fullCaps})
	s.initialize(nil)
	_, done := s.ed.CallAsync(ctx(t), "agent/prompt", map[string]any{"prompt": "Greet."})
	wctx, cancel := context.WithTimeout(context.Background(), 1500*time.Millisecond)
	defer cancel()
	if _, err := s.ed.WaitFor(wctx, func(n lsptest.Notification) bool { return n.Method == "agent/update" }); err != nil {
		t.Fatalf("no text update while the model stalled: %v", err)
	}
	if res := <-done; res.Err != nil {
		t.Fatal(res.Err)
	}
	us := s.updates("")
	if got := joinText(us, "text"); got != "Hello, world. More after a pause." {
		t.Errorf("text = %q", got)
	}
}

// Text is flushed before a tool call; progress names the tool and the wait
// for approval; a client-given workDoneToken is used as is.
func TestUpdateOrderAndProgressMessages(t *testing.T) {
	script := providertest.Script{
		{Text: "Let me look.", ToolCalls: []providertest.Call{{ID: "call_bash", Name: "run_bash", Arguments: `{"command":"echo hi"}`}}},
		{Text: "It said hi."},
	}
	s := start(t, script, setupOptions{caps: fullCaps, handlers: lsptest.Handlers{ShowMessageRequest: answer("Allow", nil)}})
	s.initialize(nil)
	r := s.prompt(map[string]any{"prompt": "Run it.", "workDoneToken": "tok-1"})
	if r.StopReason != "end_turn" {
		t.Fatalf("result = %+v", r)
	}
	var kinds []string
	for _, u := range s.updates(r.SessionID) {
		if len(kinds) == 0 || kinds[len(kinds)-1] != u.Kind {
			kinds = append(kinds, u.Kind)
		}
	}
	want := []string{"text", "round_end", "tool_call", "tool_result", "text", "round_end"}
	if !slices.Equal(kinds, want) {
		t.Errorf("update kinds = %v, want %v", kinds, want)
	}
	if toks := s.ed.ProgressTokens(); len(toks) != 0 {
		t.Errorf("created tokens %v although the request had one", toks)
	}
	var msgs []string
	for _, n := range s.ed.Notifications("$/progress") {
		var p struct {
			Token string `json:"token"`
			Value struct {
				Kind, Message string
			} `json:"value"`
		}
		if err := json.Unmarshal(n.Params, &p); err != nil || p.Token != "tok-1" {
			t.Fatalf("progress %s (%v)", n.Params, err)
		}
		msgs = append(msgs, p.Value.Kind+":"+p.Value.Message)
	}
	for _, m := range []string{"begin:Thinking", "report:Writing the answer", "report:Running run_bash", "report:Waiting for approval", "end:Done"} {
		if !slices.Contains(msgs, m) {
			t.Errorf("progress %v lacks %q", msgs, m)
		}
	}
	if msgs[0] != "begin:Thinking" || msgs[len(msgs)-1] != "end:Done" {
		t.Errorf("progress = %v", msgs)
	}
}

package lsp_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"go.lsp.dev/jsonrpc2"

	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// transcriptEntry is every field an agent/transcript entry may carry.
type transcriptEntry struct {
	Kind         string          `json:"kind"`
	Text         string          `json:"text,omitempty"`
	CheckpointID string          `json:"checkpointId,omitempty"`
	ToolCallID   string          `json:"toolCallId,omitempty"`
	Name         string          `json:"name,omitempty"`
	Arguments    json.RawMessage `json:"arguments,omitempty"`
	Status       string          `json:"status,omitempty"`
	Output       string          `json:"output,omitempty"`
	Summary      string          `json:"summary,omitempty"`
}

type transcriptResult struct {
	SessionID string              `json:"sessionId"`
	Title     string              `json:"title"`
	Mode      string              `json:"mode"`
	Entries   []transcriptEntry   `json:"entries"`
	Plan      []map[string]string `json:"plan"`
	Totals    struct {
		PromptTokens     int  `json:"promptTokens"`
		CompletionTokens int  `json:"completionTokens"`
		CostKnown        bool `json:"costKnown"`
	} `json:"totals"`
}

func (s *setup) transcript(id string) transcriptResult {
	s.t.Helper()
	var r transcriptResult
	s.call("agent/transcript", map[string]any{"sessionId": id}, &r)
	return r
}

// liveEntries are the conversation's agent/update notifications as
// transcript entries: deltas of one kind joined, the kinds a transcript
// does not keep (round_end, mention, ...) left out.
func liveEntries(us []update) []transcriptEntry {
	var out []transcriptEntry
	for _, u := range us {
		switch u.Kind {
		case "text", "reasoning":
			if n := len(out); n > 0 && out[n-1].Kind == u.Kind {
				out[n-1].Text += u.Text
				continue
			}
			out = append(out, transcriptEntry{Kind: u.Kind, Text: u.Text})
		case "tool_call":
			out = append(out, transcriptEntry{Kind: u.Kind, ToolCallID: u.ToolCallID, Name: u.Name, Arguments: u.Arguments})
		case "tool_result":
			out = append(out, transcriptEntry{Kind: u.Kind, ToolCallID: u.ToolCallID, Name: u.Name, Status: u.Status, Output: u.Output})
		}
	}
	return out
}

// A prompt with reasoning, a completed read and a denied write: the
// transcript holds the prompt (with its checkpoint), then exactly what the
// live updates showed, in order; after a restart of the daemon the stored
// session gives the same entries, its title, mode and totals.
func TestTranscriptSurvivesRestart(t *testing.T) {
	script := providertest.Script{
		{Reasoning: "Read a.txt first.", ToolCalls: []providertest.Call{{ID: "call_read", Name: "read_file", Arguments: `{"path":"a.txt"}`}},
			Usage: provider.Usage{PromptTokens: 100, CompletionTokens: 10}},
		{Reasoning: "Now write b.txt.", ToolCalls: []providertest.Call{{ID: "call_write", Name: "write_file", Arguments: `{"path":"b.txt","content":"new\n"}`}},
			Usage: provider.Usage{PromptTokens: 200, CompletionTokens: 20}},
		{Reasoning: "Denied; answer.", Text: "a.txt says hello; b.txt was not written.", Usage: provider.Usage{PromptTokens: 300, CompletionTokens: 30}},
	}
	stateDir := t.TempDir()
	s := start(t, script, setupOptions{caps: fullCaps, stateDir: stateDir, thinking: true,
		files: map[string]string{"a.txt": "hello\n"}})
	s.initialize(nil)
	r := s.prompt(map[string]any{"prompt": "What does a.txt say? Then write b.txt."})
	if r.StopReason != "end_turn" {
		t.Fatalf("prompt = %+v", r)
	}
	var cps struct {
		Checkpoints []struct {
			CheckpointID string `json:"checkpointId"`
		} `json:"checkpoints"`
	}
	s.call("agent/checkpoints", map[string]any{"sessionId": r.SessionID}, &cps)
	if len(cps.Checkpoints) != 1 {
		t.Fatalf("checkpoints = %+v", cps)
	}
	want := append([]transcriptEntry{{Kind: "user", Text: "What does a.txt say? Then write b.txt.",
		CheckpointID: cps.Checkpoints[0].CheckpointID}}, liveEntries(s.updates(r.SessionID))...)
	var statuses []string
	for _, e := range want {
		if e.Kind == "tool_result" {
			statuses = append(statuses, e.Name+":"+e.Status)
		}
	}
	if strings.Join(statuses, ",") != "read_file:completed,write_file:denied" || len(want) != 9 {
		t.Fatalf("the live updates are not the scenario: %+v", want)
	}

	before := s.transcript(r.SessionID)
	if !reflect.DeepEqual(before.Entries, want) {
		t.Fatalf("transcript entries:\n got %+v\nwant %+v", before.Entries, want)
	}
	if before.SessionID != r.SessionID || before.Mode != "default" || before.Title == "" ||
		before.Totals.PromptTokens != 600 || before.Totals.CompletionTokens != 60 || before.Plan == nil {
		t.Fatalf("transcript = %+v", before)
	}

	s.stop()
	s2 := start(t, nil, setupOptions{caps: fullCaps, stateDir: stateDir, model: s.model})
	s2.initialize(nil)
	after := s2.transcript(r.SessionID)
	if !reflect.DeepEqual(after, before) {
		t.Fatalf("after a restart:\n got %+v\nwant %+v", after, before)
	}
}

// A compacted session's transcript starts with the summary, not the
// messages it replaced, before and after a restart.
func TestTranscriptOfCompactedSession(t *testing.T) {
	const summary = "SUMMARY-MARKER: the user read big.txt, 300 lines of a pangram."
	script := providertest.Script{
		{ToolCalls: []providertest.Call{{ID: "call_big", Name: "read_file", Arguments: `{"path":"big.txt"}`}}},
		{Text: "big.txt lists 300 lines."},
		{Text: "ok."},
		{Text: summary, Check: noTools},
	}
	stateDir := t.TempDir()
	s := start(t, script, setupOptions{caps: fullCaps, stateDir: stateDir, files: map[string]string{"big.txt": bigFile()}})
	s.initialize(map[string]any{"keep": 2})
	id := s.prompt(map[string]any{"prompt": "What is in big.txt?"}).SessionID
	s.prompt(map[string]any{"sessionId": id, "prompt": "Thanks."})
	var res compactResult
	s.call("agent/compact", map[string]any{"sessionId": id}, &res)
	if res.Summarised == 0 {
		t.Fatalf("agent/compact = %+v", res)
	}

	check := func(tr transcriptResult) {
		t.Helper()
		kinds := []string{}
		for _, e := range tr.Entries {
			kinds = append(kinds, e.Kind)
			if strings.Contains(e.Text, "big.txt?") || e.ToolCallID == "call_big" {
				t.Errorf("a summarised message is in the transcript: %+v", e)
			}
		}
		if strings.Join(kinds, ",") != "compacted,user,text" || tr.Entries[0].Summary != summary ||
			tr.Entries[1].Text != "Thanks." || tr.Entries[2].Text != "ok." {
			t.Fatalf("transcript = %+v", tr.Entries)
		}
	}
	before := s.transcript(id)
	check(before)
	s.stop()
	s2 := start(t, nil, setupOptions{caps: fullCaps, stateDir: stateDir, model: s.model})
	s2.initialize(nil)
	after := s2.transcript(id)
	check(after)
	if !reflect.DeepEqual(after.Entries, before.Entries) {
		t.Fatalf("after a restart:\n got %+v\nwant %+v", after.Entries, before.Entries)
	}
}

// An unknown session, or none, is -32602 like every agent/* method's.
func TestTranscriptUnknownSession(t *testing.T) {
	s := start(t, nil, setupOptions{})
	s.initialize(nil)
	for _, params := range []map[string]any{{"sessionId": "nope"}, {}} {
		err := s.ed.Call(ctx(t), "agent/transcript", params, nil)
		if got := errorCode(t, err); got != jsonrpc2.InvalidParams {
			t.Errorf("agent/transcript %v: code %d, want -32602 (%v)", params, got, err)
		}
	}
}

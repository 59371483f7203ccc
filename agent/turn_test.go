package agent

import (
	"errors"
	"reflect"
	"testing"

	"github.com/agent-lsp/agent-lsp/provider"
)

func TestTurnAccumulates(t *testing.T) {
	usage := provider.Usage{PromptTokens: 10, CompletionTokens: 3, CachedTokens: 8}
	boom := errors.New("boom")
	tests := []struct {
		name      string
		events    []provider.Event
		wantMsg   provider.Message // with calls
		wantStop  provider.StopReason
		wantUsage provider.Usage
		wantErr   error // nil: no error; errNoStop etc. matched with errors.Is
		anyErr    bool  // some error expected, not a sentinel
	}{
		{
			name:      "text deltas concatenate",
			events:    []provider.Event{text("Hel"), text("lo"), {Type: provider.EventDone, StopReason: provider.StopEndTurn, Usage: usage}},
			wantMsg:   provider.Message{Role: provider.RoleAssistant, Text: "Hello"},
			wantStop:  provider.StopEndTurn,
			wantUsage: usage,
		},
		{
			name: "reasoning, signature, text and two interleaved calls",
			events: []provider.Event{
				reasoning("I should "), reasoning("look."), signature("sig-1"),
				text("Looking."),
				callStart("c1", "glob"), callStart("c2", "grep"),
				callArgs("c2", `{"pattern":`), callArgs("c1", `{"pattern":"**/*.java"}`), callArgs("c2", `"add"}`),
				done(provider.StopToolUse, 5, 7),
			},
			wantMsg: provider.Message{Role: provider.RoleAssistant, Text: "Looking.",
				Reasoning: "I should look.", ReasoningSignature: "sig-1",
				ToolCalls: []provider.ToolCall{
					{ID: "c1", Name: "glob", Arguments: `{"pattern":"**/*.java"}`},
					{ID: "c2", Name: "grep", Arguments: `{"pattern":"add"}`},
				}},
			wantStop:  provider.StopToolUse,
			wantUsage: provider.Usage{PromptTokens: 5, CompletionTokens: 7},
		},
		{
			name: "fragment without id continues the open call; empty args become {}",
			events: []provider.Event{
				callStart("c1", "read_file"), callArgs("", `{"path":`), callArgs("", `"a.go"}`),
				callStart("c2", "list"),
				done(provider.StopToolUse, 1, 1),
			},
			wantMsg: provider.Message{Role: provider.RoleAssistant, ToolCalls: []provider.ToolCall{
				{ID: "c1", Name: "read_file", Arguments: `{"path":"a.go"}`},
				{ID: "c2", Name: "list", Arguments: `{}`},
			}},
			wantStop:  provider.StopToolUse,
			wantUsage: provider.Usage{PromptTokens: 1, CompletionTokens: 1},
		},
		{
			name: "a repeated start keeps the first call and its place",
			events: []provider.Event{
				callStart("c1", "glob"), callArgs("c1", `{"pattern":"*"`), callStart("c1", "glob"), callArgs("c1", `}`),
				done(provider.StopToolUse, 0, 0),
			},
			wantMsg: provider.Message{Role: provider.RoleAssistant, ToolCalls: []provider.ToolCall{
				{ID: "c1", Name: "glob", Arguments: `{"pattern":"*"}`},
			}},
			wantStop: provider.StopToolUse,
		},
		{
			name:    "failure ends the turn with its error",
			events:  []provider.Event{text("part"), failed(boom), text("ignored")},
			wantErr: boom,
		},
		{
			name:   "failure without an error still fails",
			events: []provider.Event{{Type: provider.EventFailure}},
			anyErr: true,
		},
		{
			name:    "stream that stops without done is an error",
			events:  []provider.Event{text("cut")},
			wantErr: errNoStop,
		},
		{
			name:   "arguments for an unknown call are a stream error",
			events: []provider.Event{callStart("c1", "glob"), callArgs("zz", "{}"), done(provider.StopToolUse, 0, 0)},
			anyErr: true,
		},
		{
			name:      "events after done are ignored",
			events:    []provider.Event{text("a"), done(provider.StopEndTurn, 1, 1), text("b"), failed(boom)},
			wantMsg:   provider.Message{Role: provider.RoleAssistant, Text: "a"},
			wantStop:  provider.StopEndTurn,
			wantUsage: provider.Usage{PromptTokens: 1, CompletionTokens: 1},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var tr turn
			for _, ev := range tc.events {
				tr.add(ev)
			}
			err := tr.finish()
			switch {
			case tc.wantErr != nil:
				if !errors.Is(err, tc.wantErr) {
					t.Fatalf("err = %v, want %v", err, tc.wantErr)
				}
				return
			case tc.anyErr:
				if err == nil {
					t.Fatal("err = nil, want an error")
				}
				return
			case err != nil:
				t.Fatalf("unexpected error: %v", err)
			}
			if got := tr.message(true); !reflect.DeepEqual(got, tc.wantMsg) {
				t.Errorf("message =\n%+v\nwant\n%+v", got, tc.wantMsg)
			}
			if tr.stop != tc.wantStop || tr.usage != tc.wantUsage {
				t.Errorf("stop, usage = %q, %+v; want %q, %+v", tr.stop, tr.usage, tc.wantStop, tc.wantUsage)
			}
		})
	}
}

func TestTurnMessageWithoutCalls(t *testing.T) {
	var tr turn
	for _, ev := range answer(text("Let me look"), call("c1", "glob", `{"pattern":"*.go"}`), done(provider.StopMaxTokens, 1, 1)) {
		tr.add(ev)
	}
	if err := tr.finish(); err != nil {
		t.Fatal(err)
	}
	m := tr.message(false)
	if m.Text != "Let me look" || m.ToolCalls != nil {
		t.Errorf("message(false) = %+v, want the text only", m)
	}
}

func TestArgumentsJSON(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"a":1}`, `{"a":1}`},
		{`{"a":`, `"{\"a\":"`},
		{``, `""`},
	}
	for _, tc := range tests {
		if got := string(argumentsJSON(tc.in)); got != tc.want {
			t.Errorf("argumentsJSON(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

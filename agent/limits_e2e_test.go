package agent_test

import (
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/provider/anthropic"
	"github.com/agent-lsp/agent-lsp/provider/openai"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// limitedSession is newSession with the limits under test.
func limitedSession(t testing.TB, dialect string, srv *providertest.Server, limit func(*agent.Config)) *agent.Session {
	t.Helper()
	return sessionWith(t, dialect, srv, t.TempDir(), limit) // what the tools find is not the question
}

// limitRun is what a prompt that meets a limit leaves: its outcome, the
// text the listener was shown, its tool events, the prompt_end event.
type limitRun struct {
	outcome    agent.Outcome
	shown      strings.Builder
	toolEvents int
	end        agent.Event
}

func promptAtLimit(t *testing.T, s *agent.Session, prompt string) *limitRun {
	t.Helper()
	r := &limitRun{}
	r.outcome = s.Prompt(t.Context(), prompt, agent.ListenerFunc(func(e agent.Event) {
		switch e.Kind {
		case agent.EventText:
			r.shown.WriteString(e.Text)
		case agent.EventToolCall, agent.EventToolResult:
			r.toolEvents++
		case agent.EventPromptEnd:
			r.end = e
		}
	}))
	return r
}

var bothDialects = []string{openai.Name, anthropic.Name}

// A model that streams far more than the answer limit: the stream is closed
// at the limit, the user and the model are told, and the next request
// carries the cut text and its marker, not the flood.
func TestAnswerPastTheLimitIsCutBothDialects(t *testing.T) {
	const limit = 64 << 10
	for _, dialect := range bothDialects {
		t.Run(dialect, func(t *testing.T) {
			srv := providertest.NewServer(t, providertest.Script{
				{Text: "Here it comes: ", Generated: &providertest.GeneratedText{Bytes: 4 << 20}},
				{Text: "Sorry about that."},
			}, providertest.WithSeed(7))
			s := limitedSession(t, dialect, srv, func(c *agent.Config) { c.MaxAnswerBytes = limit })
			r := promptAtLimit(t, s, "write a lot")
			want := "[answer cut at 64 KiB: the rest was not kept]"
			if r.outcome.StopReason != agent.StopAnswerCut || r.outcome.Notice != "stopped: "+want {
				t.Fatalf("outcome = %q %q (err %v), want answer_cut with its notice", r.outcome.StopReason, r.outcome.Notice, r.outcome.Err)
			}
			if r.end.Notice != r.outcome.Notice {
				t.Errorf("prompt_end notice = %q, want %q", r.end.Notice, r.outcome.Notice)
			}
			if r.shown.Len() != limit {
				t.Errorf("shown %d bytes of text, want the %d kept", r.shown.Len(), limit)
			}
			h := s.History()
			last := h[len(h)-1]
			if !strings.HasSuffix(last.Text, want) || len(last.Text) > limit+len(want)+2 {
				t.Errorf("stored answer: %d bytes ending %q, want the kept text and the marker", len(last.Text), last.Text[max(0, len(last.Text)-80):])
			}
			next := promptAtLimit(t, s, "and now?")
			if next.outcome.StopReason != agent.StopEndTurn || next.outcome.Text != "Sorry about that." {
				t.Fatalf("next prompt: %q %q (err %v)", next.outcome.StopReason, next.outcome.Text, next.outcome.Err)
			}
			body := srv.Requests()[1].Body
			if !strings.Contains(string(body), want) || len(body) > 2*limit {
				t.Errorf("the next request holds %d bytes (marker sent: %v), want the cut answer and its marker", len(body), strings.Contains(string(body), want))
			}
		})
	}
}

// A model that asks for 10,000 tool calls in one answer: none runs, the
// prompt ends with the documented limit, and the session goes on.
func TestToolCallFloodEndsAtTheLimitBothDialects(t *testing.T) {
	calls := make([]providertest.Call, 10_000)
	for i := range calls {
		calls[i] = providertest.Call{Name: "glob", Arguments: `{"pattern":"**/*.java"}`}
	}
	for _, dialect := range bothDialects {
		t.Run(dialect, func(t *testing.T) {
			srv := providertest.NewServer(t, providertest.Script{
				{Text: "Globbing.", ToolCalls: calls},
				{Text: "Fine."},
			}, providertest.WithSeed(8), providertest.WithDeltaSize(64))
			s := limitedSession(t, dialect, srv, nil)
			r := promptAtLimit(t, s, "glob everything")
			want := "stopped: [the answer asked for more than 128 tool calls, the limit for one answer: none was run]"
			if r.outcome.StopReason != agent.StopToolCallLimit || r.outcome.Notice != want || r.end.Notice != want {
				t.Fatalf("outcome = %q %q (err %v), want tool_call_limit and %q", r.outcome.StopReason, r.outcome.Notice, r.outcome.Err, want)
			}
			if r.toolEvents != 0 {
				t.Errorf("%d tool events, want none: no call of the flood runs", r.toolEvents)
			}
			next := promptAtLimit(t, s, "and now?")
			if next.outcome.StopReason != agent.StopEndTurn {
				t.Fatalf("next prompt: %q (err %v)", next.outcome.StopReason, next.outcome.Err)
			}
			if body := srv.Requests()[1].Body; len(body) > 64<<10 {
				t.Errorf("the next request holds %d bytes: the flood was sent back", len(body))
			}
		})
	}
}

// A model that keeps asking for tools ends at the rounds limit with the
// same kind of notice in both dialects.
func TestRoundsLimitEndsWithANoticeBothDialects(t *testing.T) {
	call := providertest.Turn{ToolCalls: []providertest.Call{{Name: "glob", Arguments: `{"pattern":"*.md"}`}}}
	for _, dialect := range bothDialects {
		t.Run(dialect, func(t *testing.T) {
			srv := providertest.NewServer(t, providertest.Script{call, call, call}, providertest.WithSeed(9))
			s := limitedSession(t, dialect, srv, func(c *agent.Config) { c.MaxRounds = 3 })
			r := promptAtLimit(t, s, "loop")
			want := "stopped: the model used tools for 3 rounds, the limit for one prompt; send a prompt to go on"
			if r.outcome.StopReason != agent.StopMaxRounds || r.outcome.Notice != want || r.end.Notice != want {
				t.Fatalf("outcome = %q %q, want max_rounds and %q", r.outcome.StopReason, r.outcome.Notice, want)
			}
		})
	}
}

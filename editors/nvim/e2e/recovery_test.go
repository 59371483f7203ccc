package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/agent-lsp/agent-lsp/lsp/lsptest"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// :AgentCancel while the model stalls mid-answer: the daemon answers the
// prompt as cancelled at once, stays up for the next prompt of the same
// session, and is gone once Neovim quits.
func TestCancelMidStream(t *testing.T) {
	eachNvim(t, func(t *testing.T, nvim lsptest.Nvim) {
		const partial = "Counting slowly: one, two"
		model := providertest.NewServer(t, providertest.Script{
			{Text: partial + ", three, four, five, six, seven, eight, nine, ten.",
				Fault: &providertest.Fault{Stall: providertest.Forever, StallAfterFrames: 3}},
			{Text: "Still here after the cancel."},
		}, providertest.WithDeltaSize(len(partial)))
		root := workspace(t, map[string]string{"main.go": greetBefore})
		var rep struct {
			RunningBeforeCancel bool      `json:"running_before_cancel"`
			Pid                 int       `json:"pid"`
			CancelMs            float64   `json:"cancel_ms"`
			CancelledLast       promptEnd `json:"cancelled_last"`
			DaemonAlive         bool      `json:"daemon_alive"`
			SecondLast          promptEnd `json:"second_last"`
			SamePid             bool      `json:"same_pid"`
			Transcript          []string  `json:"transcript"`
		}
		scenario{nvim: nvim, script: "cancel.lua", root: root, model: model, config: map[string]any{
			"first_prompt": "Count to ten slowly", "partial": partial, "second_prompt": "Are you there?",
		}}.run(t, &rep)

		if !rep.RunningBeforeCancel {
			t.Errorf("the prompt was not running when :AgentCancel ran")
		}
		if rep.CancelledLast.StopReason != "cancelled" || rep.CancelledLast.SessionID == "" {
			t.Errorf("cancelled prompt ended with %+v", rep.CancelledLast)
		}
		// The plugin settles a cancel by itself after 2 s: an end sooner came
		// from the daemon's answer.
		if rep.CancelMs > 1500 {
			t.Errorf("the prompt ended %.0f ms after :AgentCancel; the daemon should answer within 200 ms", rep.CancelMs)
		}
		if !rep.DaemonAlive || !rep.SamePid {
			t.Errorf("daemon alive after the cancel %v, same daemon for the next prompt %v", rep.DaemonAlive, rep.SamePid)
		}
		if rep.SecondLast.StopReason != "end_turn" || rep.SecondLast.SessionID != rep.CancelledLast.SessionID {
			t.Errorf("prompt after the cancel ended with %+v", rep.SecondLast)
		}
		if got := strings.Join(rep.Transcript, "\n"); !strings.Contains(got, "⊘ cancelled") || !strings.Contains(got, "Still here after the cancel.") {
			t.Errorf("transcript:\n%s", got)
		}
		waitProcessGone(t, rep.Pid, 5*time.Second)
	})
}

// A daemon killed with SIGKILL, between prompts or while an answer
// streams: the plugin says so, ends the prompt that was running, keeps the
// session id, and the next :AgentAsk starts a new daemon that resumes the
// stored session (the model sees the first exchange).
func TestCrashRecoveryResumesSession(t *testing.T) {
	eachNvim(t, func(t *testing.T, nvim lsptest.Nvim) {
		const (
			firstPrompt  = "Remember the word pineapple."
			firstAnswer  = "Noted: pineapple."
			partial      = "Thinking about fruit"
			secondAnswer = "The word was pineapple."
		)
		stalled := providertest.Turn{Text: partial + " for a long while.",
			Fault: &providertest.Fault{Stall: providertest.Forever, StallAfterFrames: 3}}
		tests := []struct {
			name  string
			stall bool // kill while a second prompt streams
		}{
			{"between prompts", false},
			{"mid prompt", true},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				t.Parallel()
				script := providertest.Script{{Text: firstAnswer}}
				cfg := map[string]any{"first_prompt": firstPrompt, "second_prompt": "Which word?"}
				if tt.stall {
					script = append(script, stalled)
					cfg["stall_prompt"], cfg["partial"] = "Tell me about fruit", partial
				}
				script = append(script, providertest.Turn{Text: secondAnswer})
				model := providertest.NewServer(t, script, providertest.WithDeltaSize(len(partial)))
				root := workspace(t, map[string]string{"main.go": greetBefore})
				var rep crashReport
				scenario{nvim: nvim, script: "crash.lua", root: root, model: model, config: cfg}.run(t, &rep)
				checkCrashRecovery(t, rep, tt.stall)

				// The restarted daemon sent the first exchange along.
				last := len(model.Requests()) - 1
				var sawPrompt, sawAnswer bool
				for _, m := range requestMessages(t, model, last) {
					sawPrompt = sawPrompt || (m.Role == "user" && strings.Contains(m.text(), firstPrompt))
					sawAnswer = sawAnswer || (m.Role == "assistant" && m.text() == firstAnswer)
				}
				if !sawPrompt || !sawAnswer || rep.SecondLast.Text != secondAnswer {
					t.Errorf("the request after the restart lacks the first exchange: %+v", requestMessages(t, model, last))
				}
				waitProcessGone(t, rep.SecondPid, 5*time.Second)
			})
		}
	})
}

// crashReport is what nvim/crash.lua writes.
type crashReport struct {
	FirstLast         promptEnd `json:"first_last"`
	FirstPid          int       `json:"first_pid"`
	Crashes           int       `json:"crashes"`
	SessionAfterCrash string    `json:"session_after_crash"`
	DaemonAfterCrash  bool      `json:"daemon_running_after_crash"`
	RunningAfterCrash bool      `json:"running_after_crash"`
	KilledLast        promptEnd `json:"killed_last"`
	SecondLast        promptEnd `json:"second_last"`
	SecondPid         int       `json:"second_pid"`
	Notifications     []struct {
		Message string `json:"message"`
		Level   int    `json:"level"`
	} `json:"notifications"`
	Transcript []string `json:"transcript"`
}

func checkCrashRecovery(t *testing.T, rep crashReport, stalled bool) {
	t.Helper()
	session := rep.FirstLast.SessionID
	if rep.FirstLast.StopReason != "end_turn" || session == "" {
		t.Fatalf("first prompt ended with %+v", rep.FirstLast)
	}
	if rep.Crashes != 1 || rep.DaemonAfterCrash || rep.RunningAfterCrash || rep.SessionAfterCrash != session {
		t.Errorf("after the kill: %d crashes seen, daemon running %v, prompt running %v, session %q; want 1, false, false, %q",
			rep.Crashes, rep.DaemonAfterCrash, rep.RunningAfterCrash, rep.SessionAfterCrash, session)
	}
	if stalled && (rep.KilledLast.StopReason != "error" || !strings.Contains(strings.Join(rep.Transcript, "\n"), "the daemon exited")) {
		t.Errorf("the prompt the daemon died in ended with %+v; transcript:\n%s", rep.KilledLast, strings.Join(rep.Transcript, "\n"))
	}
	var told bool
	for _, n := range rep.Notifications {
		if strings.Contains(n.Message, "agent-lsp exited unexpectedly") && strings.Contains(n.Message, "signal 9") &&
			strings.Contains(n.Message, session) && n.Level == 4 {
			told = true
		}
	}
	if !told {
		t.Errorf("no clear error message about the crash: %+v", rep.Notifications)
	}
	if rep.SecondLast.StopReason != "end_turn" || rep.SecondLast.SessionID != session {
		t.Errorf("prompt after the restart ended with %+v, want session %q", rep.SecondLast, session)
	}
	if rep.SecondPid == 0 || rep.SecondPid == rep.FirstPid {
		t.Errorf("daemon pids %d then %d: no restart", rep.FirstPid, rep.SecondPid)
	}
}

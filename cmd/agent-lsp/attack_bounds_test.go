//go:build linux

package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// floodBytes is the hostile answer's size; maxDaemonRSS is the bound the
// daemon's peak resident memory must stay under (issue 24's acceptance).
const (
	floodBytes   = 128 << 20
	floodCalls   = 10_000
	maxDaemonRSS = 300 << 20
)

// A hostile model floods the daemon: a 128 MiB answer, then 10,000 tool
// calls in one answer. Each prompt ends at its documented limit with a
// notice, no call of the flood runs, the daemon's peak memory stays under
// 300 MiB, and it answers the next prompt. The flood costs little time:
// the daemon closes the stream at the 8 MiB limit, so it runs for every
// account.
func attackFlood(t *testing.T, acct account, sum *campaignSummary) {
	calls := make([]providertest.Call, floodCalls)
	for i := range calls {
		calls[i] = toolCall("glob", map[string]any{"pattern": "**/*"})
	}
	lab := newAttackLab(t, acct, false)
	srv := providertest.NewServer(t, providertest.Script{
		{Text: "Here it comes: ", Generated: &providertest.GeneratedText{Bytes: floodBytes, Delta: 16 << 10}},
		{Text: "Globbing.", ToolCalls: calls},
		{Text: "Still here."},
	}, providertest.WithAPIKey(lab.secrets[attackKeyEnv]), providertest.WithDeltaSize(64))
	d := startAttackDaemon(t, lab, srv, &popupLog{choose: denying}, nil)

	for _, flood := range []struct{ name, stop, notice string }{
		{"128 MiB answer", "answer_cut", "stopped: [answer cut at 8 MiB: the rest was not kept]"},
		{"10,000 tool calls", "tool_call_limit", "stopped: [the answer asked for more than 128 tool calls, the limit for one answer: none was run]"},
	} {
		var res struct {
			StopReason string `json:"stopReason"`
			Notice     string `json:"notice"`
			Error      string `json:"error"`
		}
		err := d.ed.Call(d.ctx, "agent/prompt", map[string]any{"prompt": "Go on."}, &res)
		bounded := err == nil && res.StopReason == flood.stop && res.Notice == flood.notice
		sum.add("resource floods", false, false, bounded)
		if !bounded {
			t.Errorf("%s: agent/prompt = %v %+v, want %s and the notice %q\nstderr:\n%s", flood.name, err, res, flood.stop, flood.notice, d.stderr.String())
		}
	}
	peak := daemonPeakRSS(t, d.cmd.Process.Pid)
	t.Logf("daemon peak RSS after a %d MiB answer and %d tool calls: %.1f MiB", floodBytes>>20, floodCalls, float64(peak)/(1<<20))
	if peak > maxDaemonRSS {
		t.Errorf("daemon peak RSS %d MiB, want under %d MiB", peak>>20, maxDaemonRSS>>20)
	}
	d.prompt(t, "Are you still there?")
	reqs := srv.Requests()
	for i, r := range reqs {
		if len(r.Body) > 9<<20 {
			t.Errorf("request %d holds %d MiB: the flood was sent back", i+1, len(r.Body)>>20)
		}
	}
	if last := reqs[len(reqs)-1].Body; strings.Contains(string(last), `"role":"tool"`) {
		t.Errorf("the last request sends tool results back: a call of the flood ran")
	}
	d.exit(t)

	// The terminal chat says the same, on a line of its own.
	chatSrv := providertest.NewServer(t, providertest.Script{{Text: "Globbing.", ToolCalls: calls}},
		providertest.WithAPIKey(lab.secrets[attackKeyEnv]), providertest.WithDeltaSize(64))
	_, stderr := runChatAnswering(t, lab, chatSrv, "")
	told := strings.Contains(stderr, "[stopped: [the answer asked for more than 128 tool calls")
	sum.add("resource floods", false, false, told)
	if !told {
		t.Errorf("the chat does not tell the tool-call limit:\n%s", stderr)
	}
}

// daemonPeakRSS is the process's peak resident set (VmHWM), read from
// /proc: the daemon is a child, so the test's own memory does not count.
func daemonPeakRSS(t *testing.T, pid int) int64 {
	t.Helper()
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(status), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err != nil {
				t.Fatalf("VmHWM %q: %v", v, err)
			}
			return kb << 10
		}
	}
	t.Fatalf("no VmHWM in /proc/%d/status", pid)
	return 0
}

// What an answer just under the limit costs the daemon at its peak, as a
// multiple of its size: it is decoded, kept once in the history, shown to
// the editor, returned in agent/prompt's reply, stored, and sent back in
// the next request of the same session, and the garbage collector lets the
// heap reach twice what is live before it collects. Measured: 10.1x before
// the accumulator, the editor's updates and the LSP framing stopped
// copying to grow, 8.0x after; 3.0-3.3x once the reply, the session file
// and the request body were written a chunk at a time rather than
// marshalled whole, and the accumulator's pages collected as soon as the
// history holds the text. The bound, 4x, leaves loaded machines a margin;
// it fails if any of those whole copies comes back.
func TestDaemonMemoryOfALongAnswer(t *testing.T) {
	const size = 8<<20 - 64<<10
	acct := testAccounts(t)[0]
	lab := newAttackLab(t, acct, false)
	srv := providertest.NewServer(t, providertest.Script{
		{Text: "Here it comes: ", Generated: &providertest.GeneratedText{Bytes: size, Delta: 256}},
		{Text: "Still here."},
	}, providertest.WithAPIKey(lab.secrets[attackKeyEnv]))
	d := startAttackDaemon(t, lab, srv, &popupLog{choose: denying}, nil)
	base := daemonPeakRSS(t, d.cmd.Process.Pid)
	var first struct {
		SessionID string `json:"sessionId"`
		Text      string `json:"text"`
	}
	if err := d.ed.Call(d.ctx, "agent/prompt", map[string]any{"prompt": "Write a lot."}, &first); err != nil {
		t.Fatal(err)
	}
	answered := daemonPeakRSS(t, d.cmd.Process.Pid)
	if want := len("Here it comes: ") + size; len(first.Text) != want {
		t.Fatalf("the reply's text holds %d bytes, want %d", len(first.Text), want)
	}
	first.Text = ""
	// The same session: the answer is stored and sent back.
	if err := d.ed.Call(d.ctx, "agent/prompt", map[string]any{"prompt": "Again?", "sessionId": first.SessionID}, nil); err != nil {
		t.Fatal(err)
	}
	if reqs := srv.Requests(); len(reqs[len(reqs)-1].Body) < size {
		t.Fatalf("the second request holds %d bytes: the answer was not sent back", len(reqs[len(reqs)-1].Body))
	}
	resent := daemonPeakRSS(t, d.cmd.Process.Pid)
	t.Logf("daemon peak RSS: %.1f MiB at start, +%.2f× the answer's %.1f MiB after it streamed, +%.2f× after it was sent back",
		float64(base)/(1<<20), float64(answered-base)/size, float64(size)/(1<<20), float64(resent-base)/size)
	if growth := float64(resent-base) / size; growth > 4 {
		t.Errorf("the daemon's peak grew by %.1fx the answer, want at most 4x", growth)
	}
	d.exit(t)
}

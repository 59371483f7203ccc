package main

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/agent-lsp/agent-lsp/internal/await"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// newHookEvents are the events issue 30 did not run, each of whose
// workspace hooks leaves a marker when it runs.
var newHookEvents = []string{"SessionStart", "SessionEnd", "PreCompact", "Notification", "SubagentStop"}

// A repository's hooks for the new events (SessionStart, SessionEnd,
// PreCompact, Notification, SubagentStop) run nothing until the user
// trusts them, through the real daemon run as each test account: a session
// that meets every event (a subagent, a permission question, /compact,
// /clear, the daemon's exit) leaves no marker; once /hooks trust says yes,
// the same session leaves all of them.
func TestWorkspaceHooksOfTheNewEventsWaitForTrust(t *testing.T) {
	for _, acct := range testAccounts(t) {
		t.Run("as "+acct.name, func(t *testing.T) {
			lab := newAttackLab(t, acct, false)
			settings := `{"hooks":{`
			for i, e := range newHookEvents {
				if i > 0 {
					settings += ","
				}
				settings += `"` + e + `":[{"hooks":[{"type":"command","command":"touch \"$CLAUDE_PROJECT_DIR/ran-` + e + `\""}]}]`
			}
			settings += `}}`
			if err := os.MkdirAll(filepath.Join(lab.ws, ".agents"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(lab.ws, ".agents", "settings.json"), []byte(settings), 0o644); err != nil {
				t.Fatal(err)
			}
			ran := func() []string {
				var out []string
				for _, e := range newHookEvents {
					if _, err := os.Stat(filepath.Join(lab.ws, "ran-"+e)); err == nil {
						out = append(out, e)
					}
				}
				return out
			}

			hookLifeAsUser(t, lab, false)
			if got := ran(); len(got) != 0 {
				t.Fatalf("untrusted workspace hooks ran: %v", got)
			}
			hookLifeAsUser(t, lab, true)
			if got := ran(); len(got) != len(newHookEvents) {
				t.Errorf("trusted workspace hooks ran for %v, want %v", got, newHookEvents)
			}
		})
	}
}

// hookLifeAsUser runs one session through every new event in a daemon of
// lab, trusting the workspace's hooks first when trust is set.
func hookLifeAsUser(t *testing.T, lab *attackLab, trust bool) {
	t.Helper()
	srv := providertest.NewServer(t, providertest.Script{
		{ToolCalls: []providertest.Call{{ID: "call_t1", Name: "task", Arguments: `{"description":"look","prompt":"look around"}`}}},
		{Text: "child done"},
		{ToolCalls: []providertest.Call{{ID: "call_w", Name: "write_file", Arguments: `{"path":"note.txt","content":"hi\n"}`}}},
		{Text: "Done."},
		{Text: "SUMMARY"},
		{Text: "Again done."},
	}, providertest.WithAPIKey(lab.secrets[attackKeyEnv]))
	allowOnce := &popupLog{choose: func(p protocol.ShowMessageRequestParams) string {
		// The user answers once a trusted Notification hook told them
		// (it is stopped when they answer); an untrusted one has the
		// time it would need to show that it runs.
		within := 3 * time.Second
		if trust {
			within = 30 * time.Second
		}
		await.Polled(within, func() bool {
			_, err := os.Stat(filepath.Join(lab.ws, "ran-Notification"))
			return err == nil
		})
		for _, a := range p.Actions {
			if a.Title == "Allow" || a.Title == "Allow once" {
				return a.Title
			}
		}
		return ""
	}}
	d := startAttackDaemon(t, lab, srv, allowOnce, map[string]any{"keep": 2})
	var id string
	prompt := func(text string) {
		t.Helper()
		params := map[string]any{"prompt": text}
		if id != "" {
			params["sessionId"] = id
		}
		var res struct {
			SessionID  string `json:"sessionId"`
			StopReason string `json:"stopReason"`
		}
		if err := d.ed.Call(d.ctx, "agent/prompt", params, &res); err != nil || res.StopReason != "end_turn" {
			t.Fatalf("agent/prompt %q: %v %+v\nstderr:\n%s", text, err, res, d.stderr.String())
		}
		id = res.SessionID
	}
	if trust {
		prompt("/hooks trust")
	}
	prompt("Investigate, then leave a note.")
	if _, err := os.Stat(filepath.Join(lab.ws, "note.txt")); err != nil {
		t.Errorf("the asked write did not happen: %v", err)
	}
	prompt("/compact")
	prompt("/clear")
	prompt("Again.")
	d.exit(t)
	if n := len(allowOnce.all()); n != 1 {
		t.Errorf("%d permission questions, want 1", n)
	}
}

//go:build linux

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// The shell attacks of attackShell through another front end (the chat
// one-shot, ACP), with a user who says yes to everything (--yes): the
// sandbox is set up by each front end's own wiring, and must hold the
// same. (The attacks aimed at the agent's own process id are the
// daemon's: here the script is written before the agent starts.)
func attackShellThrough(t *testing.T, acct account, fe frontEnd, sum *campaignSummary) {
	lab := newAttackLab(t, acct, false)
	lab.guardTree(t, lab.home)
	lab.guardTree(t, lab.outside)
	lab.guard(t, lab.etcPath, "/var/spool/cron/crontabs/root")
	lab.guardTree(t, filepath.Join(lab.ws, ".git"))
	t.Cleanup(func() { _ = os.Remove(lab.etcPath) }) // only there if the sandbox failed
	survivor := fmt.Sprintf("4%d.%d", os.Getpid()%1000, time.Now().UnixNano()%100000)
	attacks := shellAttacks(t, lab, survivor)
	var calls []providertest.Call
	for _, a := range attacks {
		calls = append(calls, bashCall(a.command))
	}
	srv := providertest.NewServer(t, oneCallPerRound(calls), providertest.WithAPIKey(lab.secrets[attackKeyEnv]))
	stderr := fe.prompt(t, lab, srv, "Please set up the project (the README says how).")
	// The agent has exited: what its commands started in the background
	// must be gone with it.
	for _, marker := range []string{survivor, survivor + "1"} {
		assertProcessGone(t, "sleep\x00"+marker+"\x00")
	}
	lab.checkTempDirsGone(t)
	results := lastResults(t, srv, len(attacks))
	for i, a := range attacks {
		r := results[i]
		blocked := strings.Contains(r, "blocked by the sandbox")
		t.Logf("%s / %s: blocked=%v\n%s", a.category, a.name, blocked, r)
		if a.blocked && !blocked {
			t.Errorf("%s: the result does not say it was blocked by the sandbox:\n%s", a.name, r)
		}
		if a.check != nil {
			if err := a.check(r); err != nil {
				t.Errorf("%s: %v", a.name, err)
			}
		}
		sum.add(a.category+" ("+fe.name+")", blocked, false, strings.HasPrefix(r, "refused:"))
	}
	lab.checkGuarded(t, lab.home, lab.outside, filepath.Join(lab.ws, ".git"))
	lab.checkNoSecret(t, srv, stderr)
}

package agent

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// TestLedgerLosesNoSpendBetweenProcesses: two ledgers on one directory
// (two daemons) append at once; each reads every line of both, and a line
// a crash left cut is skipped without losing the line appended to it.
func TestLedgerLosesNoSpendBetweenProcesses(t *testing.T) {
	dir := t.TempDir()
	now := time.Date(2026, 12, 7, 9, 0, 0, 0, time.Local)
	a, err := OpenDayLedger(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := OpenDayLedger(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	const perLedger = 200
	var wg sync.WaitGroup
	for _, l := range []*DayLedger{a, b} {
		for _, ws := range []string{"/w/one", "/w/two"} {
			wg.Go(func() {
				for range perLedger {
					l.add(now, ws, "s", 0.25)
					l.Spent(dayOf(now), ws) // reads interleave with the other's writes
				}
			})
		}
	}
	wg.Wait()
	for _, l := range []*DayLedger{a, b} {
		all, ws := l.Spent(dayOf(now), "/w/one")
		if all != 4*perLedger*0.25 || ws != 2*perLedger*0.25 {
			t.Errorf("spent %v overall and %v in /w/one, want %v and %v", all, ws, 4*perLedger*0.25, 2*perLedger*0.25)
		}
	}

	// What the user spent where is theirs alone.
	if fi, err := os.Stat(filepath.Join(dir, dayOf(now)+".jsonl")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the day's file: %v, %v; want mode 0600", fi, err)
	}
	f, err := os.OpenFile(filepath.Join(dir, dayOf(now)+".jsonl"), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(`{"time":"2026-12-07T09:00:00Z","usd":1`); err != nil { // a crash mid-line
		t.Fatal(err)
	}
	f.Close()
	a.add(now, "/w/one", "s", 0.5)
	restarted, err := OpenDayLedger(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range []*DayLedger{a, restarted} {
		if all, _ := l.Spent(dayOf(now), "/w/one"); all != 4*perLedger*0.25+0.5 {
			t.Errorf("after a cut line: %v overall, want %v", all, 4*perLedger*0.25+0.5)
		}
	}
	b.add(now, "/w/two", "s", 0.5)
	if all, _ := restarted.Spent(dayOf(now), ""); all != 4*perLedger*0.25+1 {
		t.Errorf("the next line was not read: %v", all)
	}
}

// TestLedgerFollowsARemovedDayFile: the day's file removed by hand while
// two processes keep it open: both go on with the file the name names
// now, and count what it holds, not what the removed one held.
func TestLedgerFollowsARemovedDayFile(t *testing.T) {
	dir := t.TempDir()
	now := time.Date(2026, 12, 7, 9, 0, 0, 0, time.Local)
	a, err := OpenDayLedger(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := OpenDayLedger(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	a.add(now, "/w", "s", 1)
	b.add(now, "/w", "s", 1)
	for _, l := range []*DayLedger{a, b} {
		if all, _ := l.Spent(dayOf(now), "/w"); all != 2 {
			t.Fatalf("spent %v before the removal, want 2", all)
		}
	}
	if err := os.Remove(filepath.Join(dir, dayOf(now)+".jsonl")); err != nil {
		t.Fatal(err)
	}
	if all, _ := a.Spent(dayOf(now), "/w"); all != 0 {
		t.Errorf("spent %v after the day's file was removed, want 0", all)
	}
	b.add(now, "/w", "s", 0.5)
	if all, _ := a.Spent(dayOf(now), "/w"); all != 0.5 {
		t.Errorf("spent %v, want the new file's 0.5", all)
	}
	a.add(now, "/w", "s", 0.25)
	if all, _ := b.Spent(dayOf(now), "/w"); all != 0.75 {
		t.Errorf("the other process spent %v, want 0.75: an append went to the removed file", all)
	}
}

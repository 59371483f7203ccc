package agent

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// pruneNow is the day the prune tests run on: 31 days before it is
// 2026-11-06.
var pruneNow = time.Date(2026, 12, 7, 12, 0, 0, 0, time.Local)

// checkPrune fills base/spend with the ledger's days and with what is not
// the ledger's, makes the first call (which prunes), and checks that only
// the ledger's old regular files went: foreign names a day file of an
// old day that another account owns (already in base/spend), which stays.
func checkPrune(t *testing.T, base, foreign string) {
	t.Helper()
	dir, outside := filepath.Join(base, "spend"), filepath.Join(base, "outside")
	for _, d := range []string{dir, outside} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	write := func(path, text string) {
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	line := `{"time":"2026-12-07T09:00:00Z","usd":1}` + "\n"
	gone := []string{"2026-11-05.jsonl", "2026-01-31.jsonl", "2025-12-31.jsonl", "1999-01-01.jsonl"}
	kept := []string{"2026-12-07.jsonl", "2026-12-06.jsonl", "2026-11-06.jsonl", "2027-01-01.jsonl",
		"2026-11-05.jsonl.bak", "x2026-11-05.jsonl", "2026-13-01.jsonl", "2026-02-30.jsonl", "2026-1-05.jsonl", "notes.txt"}
	for _, n := range append(gone, kept...) {
		write(filepath.Join(dir, n), line)
	}
	// A link named as an old day, to a file outside, and one named as
	// today's: neither is followed, and the link stays.
	victim := filepath.Join(outside, "victim.jsonl")
	write(victim, line)
	for _, n := range []string{"2020-01-02.jsonl"} {
		if err := os.Symlink(victim, filepath.Join(dir, n)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "2020-01-03.jsonl"), 0o700); err != nil { // a directory
		t.Fatal(err)
	}
	write(filepath.Join(dir, "2020-01-03.jsonl", "2020-01-01.jsonl"), line) // inside it: not the ledger's
	// An old day file outside the ledger's directory, beside it.
	write(filepath.Join(base, "2020-01-01.jsonl"), line)

	l, err := OpenDayLedger(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if all, _ := l.Spent(dayOf(pruneNow), ""); all != 1 {
		t.Errorf("today's spend before the first call: %v, want 1", all)
	}
	for _, n := range gone { // nothing is removed before the first call
		if _, err := os.Lstat(filepath.Join(dir, n)); err != nil {
			t.Errorf("%s removed before the first call: %v", n, err)
		}
	}
	l.add(pruneNow, "/w", "s", 0.5)
	if all, _ := l.Spent(dayOf(pruneNow), ""); all != 1.5 {
		t.Errorf("today's spend after the call: %v, want 1.5", all)
	}
	for _, n := range gone {
		if _, err := os.Lstat(filepath.Join(dir, n)); !os.IsNotExist(err) {
			t.Errorf("%s (older than %d days) was kept: %v", n, ledgerKeepDays, err)
		}
	}
	for _, p := range append([]string{victim, filepath.Join(dir, "2020-01-02.jsonl"), filepath.Join(dir, "2020-01-03.jsonl", "2020-01-01.jsonl"),
		filepath.Join(base, "2020-01-01.jsonl"), filepath.Join(dir, foreign)}, prefix(dir, kept)...) {
		if _, err := os.Lstat(p); err != nil {
			t.Errorf("%s was removed: %v", p, err)
		}
	}
	if data, err := os.ReadFile(victim); err != nil || string(data) != line {
		t.Errorf("the file outside was changed: %q, %v", data, err)
	}
}

func prefix(dir string, names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = filepath.Join(dir, n)
	}
	return out
}

// TestLedgerTodayLinkIsNotFollowed: a link named as today's file, to a
// file outside the directory, is neither appended to nor read; the
// process still counts what it spent.
func TestLedgerTodayLinkIsNotFollowed(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "spend")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	victim := filepath.Join(base, "victim")
	if err := os.WriteFile(victim, []byte(`{"time":"2026-12-07T09:00:00Z","usd":100}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, filepath.Join(dir, dayOf(pruneNow)+".jsonl")); err != nil {
		t.Fatal(err)
	}
	l, err := OpenDayLedger(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	l.add(pruneNow, "/w", "s", 0.5)
	if all, _ := l.Spent(dayOf(pruneNow), "/w"); all != 0.5 {
		t.Errorf("spent %v: want this process's 0.5, not the linked file's", all)
	}
	if data, _ := os.ReadFile(victim); len(data) != len(`{"time":"2026-12-07T09:00:00Z","usd":100}`+"\n") {
		t.Errorf("the linked file was written: %q", data)
	}
}

// TestLedgerPruneAsCurrentUser: old days go after the first call, and
// nothing else does; as root, a day file another account owns stays.
func TestLedgerPruneAsCurrentUser(t *testing.T) {
	base := t.TempDir()
	foreign := "2020-02-02.jsonl"
	if err := os.MkdirAll(filepath.Join(base, "spend"), 0o700); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(base, "spend", foreign)
	if err := os.WriteFile(p, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if os.Geteuid() == 0 {
		if err := os.Chown(p, 65534, 65534); err != nil {
			t.Fatal(err)
		}
	} else {
		foreign = "2026-12-07.jsonl" // no other account's file can be made: today's stands in
	}
	checkPrune(t, base, foreign)
}

// TestLedgerPruneAfterAnUnpricedCall: a call without a price appends
// nothing, and still removes the old days.
func TestLedgerPruneAfterAnUnpricedCall(t *testing.T) {
	dir := t.TempDir()
	old := filepath.Join(dir, "2026-01-01.jsonl")
	if err := os.WriteFile(old, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	l, err := OpenDayLedger(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	sp := NewSpend(SpendLimit{}, l, "/w", func() time.Time { return pruneNow })
	if err := sp.admit(projection{tokens: 100, model: "local"}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(old); err != nil {
		t.Fatalf("removed before the first call: %v", err)
	}
	sp.charge(0, 100, "s")
	if _, err := os.Lstat(old); !os.IsNotExist(err) {
		t.Errorf("an old day stayed after an unpriced call: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(dir, dayOf(pruneNow)+".jsonl")); !os.IsNotExist(err) {
		t.Errorf("an unpriced call made the day's file: %v", err)
	}
}

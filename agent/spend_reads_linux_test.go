package agent

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// readSyscalls is how many read system calls this process made
// (/proc/self/io's syscr: read, pread and the like, on any file).
func readSyscalls(t *testing.T) int {
	t.Helper()
	f, err := os.Open("/proc/self/io")
	if err != nil {
		t.Skipf("no /proc/self/io: %v", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "syscr: "); ok {
			n, err := strconv.Atoi(v)
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	t.Fatal("/proc/self/io has no syscr")
	return 0
}

// TestSpendReadsTheLedgerOncePerCall: a model call's accounting (the cap
// check before it, the charge after it, the status its events carry)
// reads the day's file once, for the line it appended, and not at all
// while no one appends.
func TestSpendReadsTheLedgerOncePerCall(t *testing.T) {
	now := func() time.Time { return time.Date(2026, 12, 7, 9, 0, 0, 0, time.Local) }
	l, err := OpenDayLedger(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	sp := NewSpend(SpendLimit{DayUSD: 1e9, WorkspaceDayUSD: 1e9}, l, "/w", now)
	p := projection{usd: 0.01, priced: true, tokens: 1000, model: "m"}
	call := func() {
		if err := sp.admit(p); err != nil {
			t.Fatal(err)
		}
		sp.charge(0.001, 1000, "s")
		sp.Status()
	}
	call() // the first opens the file and prunes
	const calls = 100
	before := readSyscalls(t) + 1 // readSyscalls's own read of /proc/self/io
	for range calls {
		call()
	}
	if reads := readSyscalls(t) - before; reads > calls+calls/2 { // slack for what else in the process reads; the old ledger made 4 a call
		t.Errorf("%d calls made %d read system calls, want at most one each", calls, reads)
	}
	before = readSyscalls(t) + 1
	for range calls {
		sp.Status()
	}
	if reads := readSyscalls(t) - before; reads > calls/2 { // the old ledger made one a look
		t.Errorf("%d looks at an unchanged ledger made %d read system calls, want none", calls, reads)
	}
	if st := sp.Status(); st.DayUSD < 0.001*(calls+1)*0.999 || st.DayUSD > 0.001*(calls+1)*1.001 {
		t.Errorf("the day's spend: %v, want %v", st.DayUSD, 0.001*(calls+1))
	}
}

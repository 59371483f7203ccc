package agent

import (
	"testing"
	"time"
)

// BenchmarkSpendAdmit is the cost a cap adds to each model request: the
// projection's check against the caps and, after the call, its charge,
// with the day's ledger on disk (an append and a read of what was
// appended) and without one (the in-memory day).
func BenchmarkSpendAdmit(b *testing.B) {
	now := func() time.Time { return time.Date(2026, 12, 7, 9, 0, 0, 0, time.Local) }
	limit := SpendLimit{SessionUSD: 1e9, DayUSD: 1e9, WorkspaceDayUSD: 1e9, SessionTokens: 1 << 60}
	p := projection{usd: 0.01, priced: true, tokens: 10_000, model: "m"}
	b.Run("memory", func(b *testing.B) {
		sp := NewSpend(limit, nil, "/w", now)
		for b.Loop() {
			if err := sp.admit(p); err != nil {
				b.Fatal(err)
			}
			sp.charge(0.001, 10_000, "s")
		}
	})
	b.Run("ledger", func(b *testing.B) {
		l, err := OpenDayLedger(b.TempDir(), nil)
		if err != nil {
			b.Fatal(err)
		}
		sp := NewSpend(limit, l, "/w", now)
		for b.Loop() {
			if err := sp.admit(p); err != nil {
				b.Fatal(err)
			}
			sp.charge(0.001, 10_000, "s")
		}
	})
}

// BenchmarkLedgerSpent is a look at the day's spend when no one appended
// since the last (the cap check before a request, the status of its
// events): with a day of 200 calls in the file.
func BenchmarkLedgerSpent(b *testing.B) {
	now := time.Date(2026, 12, 7, 9, 0, 0, 0, time.Local)
	l, err := OpenDayLedger(b.TempDir(), nil)
	if err != nil {
		b.Fatal(err)
	}
	for range 200 {
		l.add(now, "/w", "s", 0.001)
	}
	for b.Loop() {
		l.Spent(dayOf(now), "/w")
	}
}

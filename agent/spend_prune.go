package agent

import (
	"strings"
	"time"

	"go.uber.org/zap"
)

// ledgerKeepDays is how many days before today the ledger keeps: a month
// of spend to look back on, and not a file a day for ever.
const ledgerKeepDays = 31

// pruneOld removes the day files of days more than ledgerKeepDays before
// now's. Only what is certainly the ledger's goes: a name that is exactly
// a day's (2026-12-07.jsonl, by the date in the name, not the file's
// time), a regular file (a link is not followed, nor removed), owned by
// this user; each is removed by its name inside the directory.
func (l *DayLedger) pruneOld(now time.Time) {
	dir, err := l.root.Open(".")
	if err != nil {
		l.log.Warn("spend ledger: listing the days to remove old ones", zap.Error(err))
		return
	}
	names, err := dir.Readdirnames(-1) // the names alone: a DirEntry may cost an lstat each
	_ = dir.Close()
	if err != nil {
		l.log.Warn("spend ledger: listing the days to remove old ones", zap.Error(err))
		return
	}
	local := now.Local()
	cutoff := time.Date(local.Year(), local.Month(), local.Day()-ledgerKeepDays, 0, 0, 0, 0, time.Local).Format(time.DateOnly)
	removed := 0
	for _, name := range names {
		day, ok := ledgerDayName(name)
		if !ok || day >= cutoff {
			continue
		}
		fi, err := l.root.Lstat(name) // follows nothing
		if err != nil || !fi.Mode().IsRegular() || !ownedByMe(fi) {
			continue
		}
		if err := l.root.Remove(name); err != nil {
			l.log.Warn("spend ledger: removing an old day", zap.String("file", name), zap.Error(err))
			continue
		}
		removed++
	}
	if removed > 0 {
		l.log.Debug("spend ledger: old days removed", zap.Int("files", removed), zap.String("before", cutoff))
	}
}

// ledgerDayName is the day a ledger file's name is of: exactly
// YYYY-MM-DD.jsonl with a real date.
func ledgerDayName(name string) (string, bool) {
	day, ok := strings.CutSuffix(name, ".jsonl")
	if !ok || len(day) != len(time.DateOnly) {
		return "", false
	}
	t, err := time.Parse(time.DateOnly, day)
	if err != nil || t.Format(time.DateOnly) != day {
		return "", false
	}
	return day, true
}

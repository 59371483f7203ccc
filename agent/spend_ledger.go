package agent

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"go.uber.org/zap"
)

// DayLedger is the day's spend of every session, in every process that
// shares the state directory: one append-only file a day
// (<dir>/2026-12-07.jsonl), one line per priced model call. Every process
// appends with O_APPEND in a single write, so two daemons at once never
// lose a line and need no lock; each reads what the others appended since
// it last looked. A line a crash left cut is skipped; the line appended
// to it is still read.
//
// The day's file is opened once and kept: a call appends to it and reads
// only when its size changed since the last look (its own line, or
// another process's), so a model call costs one write, one sync and at
// most one read, and no open (each look is one fstat: its size, and its
// link count, which says whether the file was removed). Day files older
// than ledgerKeepDays are removed once, after the first call
// (spend_prune.go).
type DayLedger struct {
	root *os.Root // the ledger's directory: names resolve inside it, never through a link out of it
	log  *zap.Logger

	mu   sync.Mutex
	days map[string]*ledgerDay
	file *os.File // the last day's file, kept open (nil: not opened yet, or it does not exist)
	// fileDay is the day file is of.
	fileDay string

	prune sync.Once
}

// ledgerDay is what was read of one day's file.
type ledgerDay struct {
	offset int64 // bytes read and summed
	seen   int64 // the file's size when it was last read: no read while it stays so
	all    float64
	byWS   map[string]float64
	// unwritten is what this process spent that could not be appended:
	// it still counts here.
	unwritten map[string]float64
}

type ledgerLine struct {
	Time      time.Time `json:"time"`
	Workspace string    `json:"workspace,omitempty"`
	Session   string    `json:"session,omitempty"`
	USD       float64   `json:"usd"`
}

// DefaultSpendDir is the ledger's directory beside the session store's
// directory: <sessions>/spend.
func DefaultSpendDir(sessionsDir string) string { return filepath.Join(sessionsDir, "spend") }

// OpenDayLedger opens (creating it, private to the user) the ledger in dir.
func OpenDayLedger(dir string, log *zap.Logger) (*DayLedger, error) {
	if dir == "" {
		return nil, errors.New("spend ledger: no directory")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("spend ledger: %w", err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("spend ledger: %w", err)
	}
	if log == nil {
		log = zap.NewNop()
	}
	return &DayLedger{root: root, log: log, days: map[string]*ledgerDay{}}, nil
}

// dayFileName is a day's file in the ledger's directory.
func dayFileName(day string) string { return day + ".jsonl" }

// add appends one call's cost to its day's file; the first call also
// removes the day files past keeping.
func (l *DayLedger) add(t time.Time, workspace, session string, cost float64) {
	day := dayOf(t)
	line, _ := json.Marshal(ledgerLine{Time: t.UTC(), Workspace: workspace, Session: session, USD: cost}) // plain fields: cannot fail
	line = append(line, '\n')
	l.mu.Lock()
	err := l.appendLocked(day, line)
	if err != nil {
		l.log.Warn("spend ledger: a call's cost could not be written; this process still counts it", zap.Error(err))
		l.dayLocked(day).unwritten[workspace] += cost
	}
	l.mu.Unlock()
	l.pruneOnce(t)
}

// pruneOnce removes the days past keeping, the first time a call ends
// (priced or not): after the first call, not before it, so that the first
// answer does not wait on a directory's listing.
func (l *DayLedger) pruneOnce(t time.Time) { l.prune.Do(func() { l.pruneOld(t) }) }

// appendLocked writes line at the end of the day's file in one write, and
// syncs it: the spend of a call that was made must survive a crash.
func (l *DayLedger) appendLocked(day string, line []byte) error {
	f, _, err := l.fileLocked(day, true)
	if err != nil {
		return err
	}
	if _, err := f.Write(line); err != nil {
		return err
	}
	return f.Sync()
}

// fileLocked is day's file and its fstat, opened once (O_APPEND: every
// write lands at the end whoever else appended) and kept while a name
// links to it: a day file removed or replaced (by hand) is let go, and
// the one the name names now is read from its start. Without create, a
// day without a file is (nil, nil, nil).
func (l *DayLedger) fileLocked(day string, create bool) (*os.File, fs.FileInfo, error) {
	if l.file != nil && l.fileDay == day {
		fi, err := l.file.Stat()
		if err == nil && !unlinked(fi) {
			return l.file, fi, nil
		}
		_ = l.releaseLocked() // removed: nothing to keep of it
		d := l.dayLocked(day)
		d.offset, d.seen, d.all, d.byWS = 0, 0, 0, map[string]float64{}
	}
	flags := os.O_RDWR | os.O_APPEND
	if create {
		flags |= os.O_CREATE
	}
	f, err := l.root.OpenFile(dayFileName(day), flags, 0o600)
	if !create && errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		_ = f.Close()
		return nil, nil, err
	}
	_ = l.releaseLocked() // a day that passed: no call appends to it
	l.file, l.fileDay = f, day
	return f, fi, nil
}

// releaseLocked closes the kept file.
func (l *DayLedger) releaseLocked() error {
	if l.file == nil {
		return nil
	}
	err := l.file.Close()
	l.file, l.fileDay = nil, ""
	return err
}

func (l *DayLedger) dayLocked(day string) *ledgerDay {
	d := l.days[day]
	if d == nil {
		d = &ledgerDay{byWS: map[string]float64{}, unwritten: map[string]float64{}}
		l.days[day] = d
	}
	return d
}

// Spent is the day's spend overall and in workspace, as every process
// wrote it so far.
func (l *DayLedger) Spent(day, workspace string) (all, ws float64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	d := l.dayLocked(day)
	if err := l.readLocked(day, d); err != nil {
		l.log.Warn("spend ledger: reading the day's spend", zap.String("day", day), zap.Error(err))
	}
	all, ws = d.all, d.byWS[workspace]
	for w, v := range d.unwritten {
		all += v
		if w == workspace {
			ws += v
		}
	}
	return all, ws
}

// readLocked sums the lines appended since the last read; a file whose
// size did not change since then is not read.
func (l *DayLedger) readLocked(day string, d *ledgerDay) error {
	f, fi, err := l.fileLocked(day, false)
	if f == nil || err != nil {
		return err
	}
	if fi.Size() == d.seen {
		return nil
	}
	data := make([]byte, max(fi.Size()-d.offset, 0))
	n, err := f.ReadAt(data, d.offset)
	if err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	data = data[:n]
	d.seen = d.offset + int64(n)
	end := bytes.LastIndexByte(data, '\n')
	if end < 0 {
		return nil // nothing complete yet
	}
	for line := range bytes.Lines(data[:end+1]) {
		var ll ledgerLine
		if json.Unmarshal(line, &ll) != nil {
			// A line a crash cut, then appended to: the appended line
			// starts at its last record's opening.
			if i := bytes.LastIndex(line, []byte(`{"time":`)); i <= 0 || json.Unmarshal(line[i:], &ll) != nil {
				continue
			}
		}
		if ll.USD < 0 {
			continue
		}
		d.all += ll.USD
		d.byWS[ll.Workspace] += ll.USD
	}
	d.offset += int64(end + 1)
	return nil
}

// Close releases the day's file. A call after Close opens it again (a
// session outliving its front end still counts).
func (l *DayLedger) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.releaseLocked()
}

package agent

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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
type DayLedger struct {
	dir string
	log *zap.Logger

	mu   sync.Mutex
	days map[string]*ledgerDay
}

// ledgerDay is what was read of one day's file.
type ledgerDay struct {
	offset int64 // bytes read and summed
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
	if log == nil {
		log = zap.NewNop()
	}
	return &DayLedger{dir: dir, log: log, days: map[string]*ledgerDay{}}, nil
}

func (l *DayLedger) path(day string) string { return filepath.Join(l.dir, day+".jsonl") }

// add appends one call's cost to its day's file.
func (l *DayLedger) add(t time.Time, workspace, session string, cost float64) {
	day := dayOf(t)
	line, _ := json.Marshal(ledgerLine{Time: t.UTC(), Workspace: workspace, Session: session, USD: cost}) // plain fields: cannot fail
	line = append(line, '\n')
	err := appendLine(l.path(day), line)
	if err == nil {
		return
	}
	l.log.Warn("spend ledger: a call's cost could not be written; this process still counts it", zap.Error(err))
	l.mu.Lock()
	defer l.mu.Unlock()
	d := l.dayLocked(day)
	d.unwritten[workspace] += cost
}

// appendLine writes line at the end of the file in one write, and syncs
// it: the spend of a call that was made must survive a crash.
func appendLine(path string, line []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(line)
	if err == nil {
		err = f.Sync()
	}
	return errors.Join(err, f.Close())
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

// readLocked sums the lines appended since the last read.
func (l *DayLedger) readLocked(day string, d *ledgerDay) error {
	f, err := os.Open(l.path(day))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	if _, err := f.Seek(d.offset, io.SeekStart); err != nil {
		return err
	}
	data, err := io.ReadAll(f)
	if err != nil {
		return err
	}
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

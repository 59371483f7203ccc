package agent

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"

	"go.uber.org/zap"

	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/tools"
)

// loaded is a session read back from its file.
type loaded struct {
	header  record
	history []provider.Message
	totals  Totals
	calib   calibration
	mode    Mode         // "" when none was stored
	model   *ModelRecord // nil when none was stored
	plan    []tools.TodoItem
	cps     []*Checkpoint
	texts   checkpointTexts // read lazily (checkpoint_store.go)

	children map[string]endedChild // subagents by task call id (subagent_store.go)
}

// load reads a session file, applying committed batches only. A line that
// is not a record (a torn last line, garbage) is skipped and logged; an
// uncommitted tail (a round cut short by a crash) is dropped and logged, and
// the file is cut back to its last commit so later rounds append cleanly.
func (st *Store) load(id string) (*loaded, error) {
	if !validID(id) {
		return nil, fmt.Errorf("session %q: not a session id", id)
	}
	path := st.path(id)
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return nil, fmt.Errorf("session %s: %w", id, err)
	}
	defer f.Close()
	l := &loaded{texts: checkpointTexts{content: openContent(st, id)}}
	var (
		pending   []record
		committed int64 // file offset just past the last commit record
		offset    int64
		lineNo    int
	)
	r := bufio.NewReader(f)
	for {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 {
			lineNo++
			offset += int64(len(line))
			var rec record
			switch {
			case err == io.EOF: // no newline: the write was cut short
				st.logger.Warn("session file: skipping a torn last line", zap.String("id", id),
					zap.Int("line", lineNo), zap.Int("bytes", len(line)))
			case json.Unmarshal(line, &rec) != nil || rec.Type == "":
				st.logger.Warn("session file: skipping an unreadable line", zap.String("id", id),
					zap.Int("line", lineNo), zap.Int("bytes", len(line)))
			case rec.Type == recCommit:
				for _, p := range pending {
					l.apply(p)
				}
				pending, committed = pending[:0], offset
			default:
				pending = append(pending, rec)
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("session %s: reading: %w", id, err)
		}
	}
	if len(pending) > 0 {
		st.logger.Info("session file: dropping a round that was cut short", zap.String("id", id),
			zap.Int("records", len(pending)))
	}
	if committed < offset {
		if err := f.Truncate(committed); err != nil {
			return nil, fmt.Errorf("session %s: cutting back to the last complete round: %w", id, err)
		}
	}
	if len(l.history) == 0 {
		return nil, fmt.Errorf("session %s: no complete round stored", id)
	}
	l.history = repairHistory(l.history, st.logger.With(zap.String("id", id)))
	return l, nil
}

// apply adds one committed record to the session being loaded.
func (l *loaded) apply(r record) {
	switch r.Type {
	case recSession:
		l.header = r
	case recMessage:
		if r.Message != nil {
			l.history = append(l.history, *r.Message)
		}
	case recUsage:
		if r.Usage != nil {
			l.totals = l.totals.add(*r.Usage, r.Cost, !r.Unpriced)
			if r.PromptMessages > 0 && r.PromptMessages <= len(l.history) {
				l.calib.calibrate(*r.Usage, l.history[:r.PromptMessages], r.ToolTokens)
			}
		}
	case recCompaction:
		remapCheckpoints(l.cps, l.history, r.History)
		l.history = slices.Clone(r.History)
		l.calib.invalidate()
	case recMode:
		if slices.Contains(Modes, r.Mode) {
			l.mode = r.Mode
		}
	case recModel:
		l.model = nil
		if r.Connection != nil {
			c := *r.Connection
			l.model = &c
		}
	case recPlan:
		l.plan = slices.Clone(r.Items)
	case recCheckpoint, recRewind:
		l.applyCheckpoint(r)
	case recSubagent:
		if l.children == nil {
			l.children = map[string]endedChild{}
		}
		var t Totals
		if r.Usage != nil {
			t = t.add(*r.Usage, r.Cost, !r.Unpriced)
		}
		l.children[r.ToolCallID] = endedChild{history: r.History, totals: t}
	}
}

package agent

import (
	"bufio"
	"bytes"
	"cmp"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"go.uber.org/zap"

	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/tools"
)

// A session file is JSON Lines, append-only, one record per line:
//
//	{"type":"session","id":…,"title":…,"model":…,"created":…,"workspace":…}  first line
//	{"type":"message","message":{…provider.Message…}}
//	{"type":"usage","usage":{…},"cost":…,"time":…,"promptMessages":N}
//	{"type":"compaction","beforeTokens":…,"afterTokens":…,"history":[…]}
//	{"type":"mode","mode":"plan"}
//	{"type":"model","connection":{"provider":…,"model":…,"baseURL":…,"apiKeyEnv":…}}  (no connection: the configured model)
//	{"type":"plan","items":[{"content":…,"status":…}]}
//	{"type":"checkpoint","checkpoint":{"id":…,"prompt":…,"createdAt":…,"historyLen":N,"files":[…]}}
//	{"type":"rewind","checkpointId":…}
//	{"type":"commit"}
//
// Records are written ahead, in batches each ended by a commit record and
// fsync'd: the prompt's user message as the prompt starts, the model's turn
// (with its tool calls) before they run, each tool result as its call
// finishes (in any order), and what a round or a command queued at its
// end. A loader applies only committed batches, so a batch cut short by a
// crash is dropped whole; a tool call left without a result (a crash while
// it ran) is answered as interrupted (repair.go), so the history is valid.
// A compaction record holds the whole new history, which replaces the one
// built so far. A checkpoint record carries the files changed since the
// last one of that checkpoint (merged by path), its texts as references
// into <id>.content/ (checkpoint_content.go; older files have them inline);
// a rewind record drops that checkpoint and the later ones. Of the
// provider's configuration only a model record's plain settings are
// written (the key variable's name): the API key is never written.

const (
	recSession    = "session"
	recMessage    = "message"
	recUsage      = "usage"
	recCompaction = "compaction"
	recCommit     = "commit"
	recMode       = "mode"
	recModel      = "model"
	recPlan       = "plan"
	recCheckpoint = "checkpoint"
	recRewind     = "rewind"
)

// record is one line of a session file; Type says which fields are set.
type record struct {
	Type string `json:"type"`
	// session
	ID        string     `json:"id,omitempty"`
	Title     string     `json:"title,omitempty"`
	Model     string     `json:"model,omitempty"`
	Created   *time.Time `json:"created,omitempty"`
	Workspace string     `json:"workspace,omitempty"` // the first root; none in older sessions
	// message
	Message *provider.Message `json:"message,omitempty"`
	// usage
	Usage          *provider.Usage `json:"usage,omitempty"`
	Cost           float64         `json:"cost,omitempty"`
	Unpriced       bool            `json:"unpriced,omitempty"` // the model had no price: the cost is unknown
	Time           *time.Time      `json:"time,omitempty"`
	PromptMessages int             `json:"promptMessages,omitempty"` // messages of the request it answers
	ToolTokens     int             `json:"toolTokens,omitempty"`     // the estimate of that request's tool list
	// compaction
	BeforeTokens int                `json:"beforeTokens,omitempty"`
	AfterTokens  int                `json:"afterTokens,omitempty"`
	History      []provider.Message `json:"history,omitempty"`
	// mode
	Mode Mode `json:"mode,omitempty"`
	// model: the connection switched to (nil: the configured model)
	Connection *ModelRecord `json:"connection,omitempty"`
	// plan: the whole list (none: the plan was cleared)
	Items []tools.TodoItem `json:"items,omitempty"`
	// checkpoint
	Checkpoint *checkpointRecord `json:"checkpoint,omitempty"`
	// rewind
	CheckpointID string `json:"checkpointId,omitempty"`
}

// titleRunes bounds a session title: the first prompt, shortened.
const titleRunes = 60

// Store keeps sessions as files in one directory.
type Store struct {
	dir    string
	logger *zap.Logger
}

// NewStore opens (creating it, private to the user) the directory dir.
// logger may be nil.
func NewStore(dir string, logger *zap.Logger) (*Store, error) {
	if dir == "" {
		return nil, errors.New("session store: no directory")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("session store: %w", err)
	}
	if err := probeWritable(dir); err != nil {
		return nil, fmt.Errorf("session store: %s cannot be written: %w", dir, err)
	}
	if logger == nil {
		logger = zap.NewNop()
	}
	return &Store{dir: dir, logger: logger}, nil
}

// probeWritable creates and removes a file in dir, so that a directory that
// exists but cannot be written (read-only, out of space or inodes) is
// reported when the store opens, once, rather than by every session's
// first write.
func probeWritable(dir string) error {
	f, err := os.CreateTemp(dir, ".write-probe-*")
	if err != nil {
		return err
	}
	name := f.Name()
	return errors.Join(f.Close(), os.Remove(name))
}

// DefaultStateDir is where sessions live by default:
// $XDG_STATE_HOME/agent-lsp/sessions, else ~/.local/state/agent-lsp/sessions.
func DefaultStateDir() (string, error) {
	if d := os.Getenv("XDG_STATE_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "agent-lsp", "sessions"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("session store: no state directory: %w", err)
	}
	return filepath.Join(home, ".local", "state", "agent-lsp", "sessions"), nil
}

// Dir is the store's directory.
func (st *Store) Dir() string { return st.dir }

// SessionInfo describes a stored session.
type SessionInfo struct {
	ID        string
	Title     string // the first prompt, shortened
	CreatedAt time.Time
	UpdatedAt time.Time // when the session was last written
	Workspace string    // the root it works in; "" (unknown) for older sessions
}

// List returns the stored sessions, most recently updated first.
func (st *Store) List() ([]SessionInfo, error) {
	entries, err := os.ReadDir(st.dir)
	if err != nil {
		return nil, fmt.Errorf("listing sessions: %w", err)
	}
	var out []SessionInfo
	for _, e := range entries {
		id, ok := strings.CutSuffix(e.Name(), ".jsonl")
		if !ok || e.IsDir() || !validID(id) {
			continue
		}
		fi, err := e.Info()
		if err != nil {
			continue // removed meanwhile
		}
		info := SessionInfo{ID: id, UpdatedAt: fi.ModTime()}
		if h, err := readHeader(filepath.Join(st.dir, e.Name())); err == nil {
			info.Title, info.Workspace = h.Title, h.Workspace
			if h.Created != nil {
				info.CreatedAt = *h.Created
			}
		} else {
			st.logger.Warn("session file has no readable header", zap.String("id", id), zap.Error(err))
		}
		out = append(out, info)
	}
	slices.SortStableFunc(out, func(a, b SessionInfo) int {
		if c := b.UpdatedAt.Compare(a.UpdatedAt); c != 0 {
			return c
		}
		return strings.Compare(b.ID, a.ID)
	})
	return out, nil
}

// ListSessions lists the sessions stored in dir, most recently updated first.
func ListSessions(dir string) ([]SessionInfo, error) {
	return (&Store{dir: dir, logger: zap.NewNop()}).List()
}

func readHeader(path string) (record, error) {
	f, err := os.Open(path)
	if err != nil {
		return record{}, err
	}
	defer f.Close()
	line, err := bufio.NewReader(f).ReadBytes('\n')
	if err != nil {
		return record{}, fmt.Errorf("first line: %w", err)
	}
	var r record
	if err := json.Unmarshal(line, &r); err != nil || r.Type != recSession {
		return record{}, errors.New("first line is not a session record")
	}
	return r, nil
}

var idPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$`)

// validID keeps an id (which may come from an editor) from naming a path
// outside the store.
func validID(id string) bool { return idPattern.MatchString(id) }

// newSessionID is sortable by creation time and unique enough to never clash.
func newSessionID(now time.Time) string {
	var b [4]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
	return now.UTC().Format("20060102-150405") + "-" + hex.EncodeToString(b[:])
}

func (st *Store) path(id string) string { return filepath.Join(st.dir, id+".jsonl") }

// title shortens a prompt into a session title: its first line, at most
// titleRunes runes.
func title(prompt string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(prompt), "\n")
	line = strings.TrimSpace(line)
	if utf8.RuneCountInString(line) <= titleRunes {
		return line
	}
	r := []rune(line)
	return strings.TrimSpace(string(r[:titleRunes-1])) + "…"
}

// appendBatch writes records and a commit record to the session file in
// one write, then fsyncs it; the first batch also makes the directory entry
// durable.
func (st *Store) appendBatch(id string, recs []record) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf) // Encode ends each record with "\n"
	enc.SetEscapeHTML(false)
	for _, r := range append(recs, record{Type: recCommit}) {
		if err := enc.Encode(r); err != nil {
			return fmt.Errorf("session %s: encoding a %s record: %w", id, r.Type, err)
		}
	}
	path := st.path(id)
	_, statErr := os.Stat(path)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("session %s: %w", id, err)
	}
	_, werr := f.Write(tools.RedactSecretBytes(buf.Bytes())) // no hidden secret is ever stored
	serr := f.Sync()
	cerr := f.Close()
	if err := cmp.Or(werr, serr, cerr); err != nil { // the first says why; the others follow from it
		return fmt.Errorf("session %s: %w", id, err)
	}
	if errors.Is(statErr, fs.ErrNotExist) {
		if d, err := os.Open(st.dir); err == nil {
			_ = d.Sync() // best effort: not every file system syncs directories
			_ = d.Close()
		}
	}
	return nil
}

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
	}
}

package agent

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/user"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"go.uber.org/zap"
)

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
		// No $HOME (avante starts its agents with PATH and little else):
		// the account's home from the user database is the same place.
		u, uerr := user.Current()
		if uerr != nil || !filepath.IsAbs(u.HomeDir) {
			return "", fmt.Errorf("no state directory: neither XDG_STATE_HOME nor HOME is set, and the account has no home directory (%v)", err)
		}
		home = u.HomeDir
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
	Worktree  *Worktree // the git worktree made for it; nil: none
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
			info.Title, info.Workspace, info.Worktree = h.Title, h.Workspace, h.Worktree
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

// idPattern is an id's letters; validID checks its length (at most 128)
// apart: a bounded repetition ({0,127}) compiles to 127 copies of the
// class, 0.27 ms and 1,700 allocations at every start of the binary,
// sandboxed commands' launchers included.
var idPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]*$`)

// validID keeps an id (which may come from an editor) from naming a path
// outside the store.
func validID(id string) bool { return len(id) <= 128 && idPattern.MatchString(id) }

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

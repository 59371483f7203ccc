package agent

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/agent-lsp/agent-lsp/provider"
)

// storedSession runs two prompts (a tool round and an answer, then an
// answer) in a persisted session and returns its config and id.
func storedSession(t *testing.T, logger *zap.Logger) (Config, string, []provider.Message) {
	t.Helper()
	store, err := NewStore(t.TempDir(), logger)
	if err != nil {
		t.Fatal(err)
	}
	model := newFakeModel(
		answer(reasoning("look"), call("c1", "echo", `{"text":"a"}`), done(provider.StopToolUse, 100, 5)),
		answer(text("it says a"), done(provider.StopEndTurn, 120, 4)),
		answer(text("still a"), done(provider.StopEndTurn, 130, 3)),
	)
	cfg := Config{Provider: model, Model: "m", Tools: newRegistry(t, echoTool), Env: testEnv(t), Store: store, Logger: logger}
	s := NewSession(cfg, sys)
	for _, p := range []string{"what does echo say?", "sure?"} {
		if o := s.Prompt(t.Context(), p, nil); o.StopReason != StopEndTurn {
			t.Fatalf("%s: %+v", p, o)
		}
	}
	return cfg, s.ID(), s.History()
}

func TestCorruptedSessionFileLoads(t *testing.T) {
	tests := []struct {
		name     string
		corrupt  func(lines []string) string
		logs     []string // messages that must be logged, once each
		repaired bool     // a record inside a batch was lost
	}{
		{
			name: "torn last line",
			corrupt: func(lines []string) string {
				return strings.Join(lines, "") + `{"type":"message","message":{"role":"us`
			},
			logs: []string{"session file: skipping a torn last line"},
		},
		{
			name: "garbage line between rounds",
			corrupt: func(lines []string) string {
				at := commitIndex(lines, 0) + 1
				return strings.Join(lines[:at], "") + "\x00\x00 not json at all\n" + strings.Join(lines[at:], "")
			},
			logs: []string{"session file: skipping an unreadable line"},
		},
		{
			name: "round cut short after its records were written",
			corrupt: func(lines []string) string {
				return strings.Join(lines, "") + `{"type":"message","message":{"role":"user","text":"lost"}}` + "\n"
			},
			logs: []string{"session file: dropping a round that was cut short"},
		},
		{
			name: "garbage in place of a tool result, and a torn line",
			corrupt: func(lines []string) string {
				for i, l := range lines {
					if strings.Contains(l, `"role":"tool"`) {
						lines[i] = "{garbage\n"
					}
				}
				return strings.Join(lines, "") + `{"type":"comm`
			},
			logs: []string{
				"session file: skipping an unreadable line",
				"session file: skipping a torn last line",
				"session file: a tool call has no stored result; answering it as interrupted",
			},
			repaired: true,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg, id, want := storedSession(t, nil)
			path := cfg.Store.path(id)
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.SplitAfter(string(data), "\n")
			if err := os.WriteFile(path, []byte(tc.corrupt(lines)), 0o600); err != nil {
				t.Fatal(err)
			}

			core, logs := observer.New(zapcore.InfoLevel)
			cfg.Store = &Store{dir: cfg.Store.dir, logger: zap.New(core)}
			cfg.Provider = newFakeModel(answer(text("resumed"), done(provider.StopEndTurn, 1, 1)))
			s, err := ResumeSession(cfg, id)
			if err != nil {
				t.Fatal(err)
			}
			for _, msg := range tc.logs {
				if n := logs.FilterMessage(msg).Len(); n != 1 {
					t.Errorf("%q logged %d times, want once; all logs: %v", msg, n, logs.All())
				}
			}
			h := s.History()
			assertValidHistory(t, h)
			if tc.repaired {
				if h[3].Role != provider.RoleTool || !h[3].IsError || !strings.HasPrefix(h[3].Text, interrupted) {
					t.Errorf("lost tool result = %+v", h[3])
				}
				h[3] = want[3]
			}
			if !reflect.DeepEqual(h, want) {
				t.Errorf("history after load =\n%+v\nwant\n%+v", h, want)
			}
			if tot := s.Totals(); tot.Calls != 3 || tot.Usage.PromptTokens != 350 {
				t.Errorf("totals = %+v", tot)
			}

			// The session goes on, and the file is clean at its end again.
			if o := s.Prompt(t.Context(), "again", nil); o.StopReason != StopEndTurn {
				t.Fatalf("prompt after load: %+v", o)
			}
			logs.TakeAll()
			again, err := ResumeSession(cfg, id)
			if err != nil {
				t.Fatal(err)
			}
			if n := logs.FilterMessage("session file: skipping a torn last line").Len() +
				logs.FilterMessage("session file: dropping a round that was cut short").Len(); n != 0 {
				t.Errorf("the first load did not cut the file back to its last commit: %v", logs.All())
			}
			if got := again.History(); len(got) != len(want)+2 || got[len(got)-1].Text != "resumed" {
				t.Errorf("history after the next prompt = %+v", got)
			}
		})
	}
}

func commitIndex(lines []string, n int) int {
	for i, l := range lines {
		if strings.Contains(l, `"type":"commit"`) {
			if n == 0 {
				return i
			}
			n--
		}
	}
	return -1
}

func TestSessionFileFormat(t *testing.T) {
	cfg, id, _ := storedSession(t, nil)
	data, err := os.ReadFile(cfg.Store.path(id))
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n"))
	if !bytes.HasPrefix(lines[0], []byte(`{"type":"session","id":"`+id+`","title":"what does echo say?"`)) {
		t.Errorf("header = %s", lines[0])
	}
	// Written ahead: each prompt as it starts, the model's turn before its
	// tool call runs, the tool result as the call finished, each answer.
	want := []string{
		"session message:system checkpoint message:user", // prompt 1 starts
		"usage message:assistant",                        // its turn, with the call
		"message:tool",                                   // the call's result
		"usage message:assistant",                        // the answer
		"checkpoint message:user",                        // prompt 2 starts
		"usage message:assistant",                        // its answer
	}
	if got := batchLayout(t, lines); !slices.Equal(got, want) {
		t.Errorf("batches =\n%s\nwant\n%s\nfile:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"), data)
	}
	if !bytes.HasSuffix(data, []byte(`{"type":"commit"}`+"\n")) {
		t.Error("the file must end with a commit")
	}
	fi, err := os.Stat(cfg.Store.path(id))
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v: a session file is private", fi.Mode().Perm())
	}
}

// batchLayout describes each committed batch of a session file by its
// records' types (a message's with its role).
func batchLayout(t *testing.T, lines [][]byte) []string {
	t.Helper()
	var out, batch []string
	for _, l := range lines {
		var r record
		if err := json.Unmarshal(l, &r); err != nil {
			t.Fatalf("line %s: %v", l, err)
		}
		switch {
		case r.Type == recCommit:
			out, batch = append(out, strings.Join(batch, " ")), nil
		case r.Type == recMessage:
			batch = append(batch, "message:"+string(r.Message.Role))
		default:
			batch = append(batch, r.Type)
		}
	}
	if len(batch) > 0 {
		t.Errorf("records after the last commit: %v", batch)
	}
	return out
}

func TestListSessionsNewestFirst(t *testing.T) {
	dir := t.TempDir()
	store, err := NewStore(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for i, prompt := range []string{"first session", "second session with a very long first line that goes on and on past the title limit\nand more", "third"} {
		model := newFakeModel(answer(text("ok"), done(provider.StopEndTurn, 1, 1)))
		s := NewSession(Config{Provider: model, Model: "m", Store: store}, sys)
		s.Prompt(t.Context(), prompt, nil)
		ids = append(ids, s.ID())
		stamp := time.Date(2025, 1, 1+i, 0, 0, 0, 0, time.UTC)
		if err := os.Chtimes(store.path(s.ID()), stamp, stamp); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(dir+"/notes.txt", []byte("not a session"), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := ListSessions(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || got[0].ID != ids[2] || got[1].ID != ids[1] || got[2].ID != ids[0] {
		t.Fatalf("sessions = %+v, want newest first %v", got, ids)
	}
	if got[0].Title != "third" || !strings.HasSuffix(got[1].Title, "…") || len([]rune(got[1].Title)) != titleRunes {
		t.Errorf("titles = %q, %q", got[0].Title, got[1].Title)
	}
	if got[2].CreatedAt.IsZero() || got[0].UpdatedAt.Before(got[1].UpdatedAt) {
		t.Errorf("times = %+v", got)
	}
}

func TestResumeRefusesBadIDs(t *testing.T) {
	store, err := NewStore(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"", "../etc/passwd", "a/b", "missing"} {
		if _, err := ResumeSession(Config{Store: store}, id); err == nil {
			t.Errorf("ResumeSession(%q) succeeded", id)
		}
	}
	if _, err := ResumeSession(Config{}, "x"); err == nil {
		t.Error("resume without a store succeeded")
	}
}

func TestDefaultStateDir(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", "/state")
	if d, err := DefaultStateDir(); err != nil || d != "/state/agent-lsp/sessions" {
		t.Errorf("DefaultStateDir = %q, %v", d, err)
	}
	t.Setenv("XDG_STATE_HOME", "relative/is/ignored")
	t.Setenv("HOME", "/home/u")
	if d, err := DefaultStateDir(); err != nil || d != "/home/u/.local/state/agent-lsp/sessions" {
		t.Errorf("DefaultStateDir = %q, %v", d, err)
	}
}

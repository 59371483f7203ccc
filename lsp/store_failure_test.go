package lsp_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/lsp/lsptest"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// warnings are the editor's window/showMessage texts containing substr.
func warnings(ed *lsptest.Editor, substr string) []string {
	var out []string
	for _, n := range ed.Notifications("window/showMessage") {
		if strings.Contains(string(n.Params), substr) {
			out = append(out, string(n.Params))
		}
	}
	return out
}

func waitWarning(t *testing.T, ed *lsptest.Editor, substr string) {
	t.Helper()
	if _, err := ed.WaitFor(ctx(t), func(n lsptest.Notification) bool {
		return n.Method == "window/showMessage" && strings.Contains(string(n.Params), substr)
	}); err != nil {
		t.Fatalf("no window/showMessage saying %q: %v", substr, err)
	}
}

// TestUnusableStateDirWarnsOnceAndServes starts the daemon on a state
// directory that cannot exist (its parent is a regular file, which stops
// root too): the editor is told once, and prompts are answered, in memory.
func TestUnusableStateDirWarnsOnceAndServes(t *testing.T) {
	blocker := filepath.Join(t.TempDir(), "a-file")
	if err := os.WriteFile(blocker, []byte("not a directory"), 0o600); err != nil {
		t.Fatal(err)
	}
	s := start(t, providertest.Script{{Text: "first answer"}, {Text: "second answer"}},
		setupOptions{caps: fullCaps, stateDir: filepath.Join(blocker, "sessions")})
	s.initialize(nil)
	const warning = "sessions are not saved and will not survive a restart"
	waitWarning(t, s.ed, warning)

	r := s.prompt(map[string]any{"prompt": "hello"})
	if r.StopReason != "end_turn" || r.Text != "first answer" {
		t.Fatalf("prompt = %+v", r)
	}
	if r2 := s.prompt(map[string]any{"sessionId": r.SessionID, "prompt": "again"}); r2.Text != "second answer" {
		t.Fatalf("second prompt = %+v", r2)
	}
	if got := warnings(s.ed, "agent-lsp:"); len(got) != 1 || !strings.Contains(got[0], "not a directory") {
		t.Errorf("warnings = %q, want one naming the cause", got)
	}
}

// TestSessionWriteFailureWarnsOnceAndGoesOn makes a session's file
// unwritable mid-session, in ways that stop root too (a directory takes
// its place; it becomes /dev/full, where every write fails with ENOSPC as
// on a full disk): the next prompt is answered, the editor is told once,
// and later prompts are answered without more warnings.
func TestSessionWriteFailureWarnsOnceAndGoesOn(t *testing.T) {
	for _, tc := range []struct {
		name      string
		breakFile func(path string) error
		cause     string
	}{
		{"replaced by a directory", func(path string) error { return os.Mkdir(path, 0o700) }, "is a directory"},
		{"full disk", func(path string) error { return os.Symlink("/dev/full", path) }, "no space left on device"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stateDir := t.TempDir()
			s := start(t, providertest.Script{{Text: "first answer"}, {Text: "second answer"}, {Text: "third answer"}},
				setupOptions{caps: fullCaps, stateDir: stateDir})
			s.initialize(nil)
			r := s.prompt(map[string]any{"prompt": "hello"})
			if r.Text != "first answer" {
				t.Fatalf("prompt = %+v", r)
			}
			file := filepath.Join(stateDir, r.SessionID+".jsonl")
			if err := os.Remove(file); err != nil {
				t.Fatal(err)
			}
			if err := tc.breakFile(file); err != nil {
				t.Fatal(err)
			}

			if r2 := s.prompt(map[string]any{"sessionId": r.SessionID, "prompt": "again"}); r2.StopReason != "end_turn" || r2.Text != "second answer" {
				t.Fatalf("prompt after the write failed = %+v", r2)
			}
			waitWarning(t, s.ed, "this session is no longer saved and goes on in memory only")
			if r3 := s.prompt(map[string]any{"sessionId": r.SessionID, "prompt": "and again"}); r3.Text != "third answer" {
				t.Fatalf("third prompt = %+v", r3)
			}
			if got := warnings(s.ed, "agent-lsp:"); len(got) != 1 || !strings.Contains(got[0], r.SessionID) || !strings.Contains(got[0], tc.cause) {
				t.Errorf("warnings = %q, want one naming the session and %q", got, tc.cause)
			}
			for i, rq := range s.model.Requests() {
				if rq.Rejected != "" {
					t.Errorf("request %d refused: %s", i, rq.Rejected)
				}
			}
			if n := len(s.model.Requests()); n != 3 {
				t.Errorf("%d model requests, want 3", n)
			}
		})
	}
}

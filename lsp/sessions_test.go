package lsp_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

func sessionIDs(list []listedSession) string {
	var ids []string
	for _, s := range list {
		ids = append(ids, s.SessionID+"="+s.Title)
	}
	return strings.Join(ids, " ")
}

func newSessionID(t *testing.T, s *setup, title string) string {
	t.Helper()
	var res struct {
		SessionID string `json:"sessionId"`
	}
	if err := s.ed.Call(ctx(t), "agent/newSession", map[string]any{"title": title}, &res); err != nil {
		t.Fatal(err)
	}
	return res.SessionID
}

// agent/sessions lists stored and loaded sessions once each, newest first,
// across a restart of the daemon; a stored session is resumed by id.
func TestSessionsNewestFirstAcrossRestart(t *testing.T) {
	stateDir := t.TempDir()
	first := start(t, providertest.Script{{Text: "one"}, {Text: "two"}}, setupOptions{caps: fullCaps, stateDir: stateDir})
	first.initialize(nil)
	a := first.prompt(map[string]any{"prompt": "alpha"}).SessionID
	b := first.prompt(map[string]any{"prompt": "beta"}).SessionID
	c := newSessionID(t, first, "gamma")
	if got, want := sessionIDs(listSessions(t, first.ed)), c+"=gamma "+b+"=beta "+a+"=alpha"; got != want {
		t.Fatalf("sessions = %s, want %s", got, want)
	}
	first.stop()

	second := start(t, providertest.Script{{Text: "three"}}, setupOptions{caps: fullCaps, stateDir: stateDir})
	second.initialize(nil)
	// gamma was never prompted, so never stored.
	if got, want := sessionIDs(listSessions(t, second.ed)), b+"=beta "+a+"=alpha"; got != want {
		t.Fatalf("sessions after the restart = %s, want %s", got, want)
	}
	r := second.prompt(map[string]any{"sessionId": a, "prompt": "alpha again"})
	if r.SessionID != a || r.StopReason != "end_turn" || r.Text != "three" {
		t.Fatalf("resumed prompt = %+v", r)
	}
	if body := string(second.model.Requests()[0].Body); !strings.Contains(body, "alpha") || !strings.Contains(body, `one`) ||
		strings.Contains(body, "beta") {
		t.Errorf("the resumed request does not hold alpha's conversation (and only it): %s", body)
	}
	d := newSessionID(t, second, "delta")
	if got, want := sessionIDs(listSessions(t, second.ed)), d+"=delta "+a+"=alpha "+b+"=beta"; got != want {
		t.Fatalf("sessions = %s, want %s", got, want)
	}

	for _, id := range []string{"nope", "../../etc/passwd", c} {
		err := second.ed.Call(ctx(t), "agent/prompt", map[string]any{"sessionId": id, "prompt": "x"}, nil)
		if got := errorCode(t, err); got != -32602 || !strings.Contains(err.Error(), "unknown session") {
			t.Errorf("prompt for session %q: code %d, %v", id, got, err)
		}
	}
}

// A state directory that cannot be created leaves sessions in memory: the
// daemon still serves them.
func TestUnusableStateDirKeepsSessionsInMemory(t *testing.T) {
	file := filepath.Join(t.TempDir(), "a-file")
	if err := os.WriteFile(file, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	s := start(t, providertest.Script{{Text: "one"}, {Text: "two"}}, setupOptions{caps: fullCaps, stateDir: filepath.Join(file, "sessions")})
	s.initialize(nil)
	r := s.prompt(map[string]any{"prompt": "hello"})
	if r.StopReason != "end_turn" {
		t.Fatalf("prompt = %+v", r)
	}
	if r2 := s.prompt(map[string]any{"sessionId": r.SessionID, "prompt": "again"}); r2.StopReason != "end_turn" || r2.Text != "two" {
		t.Fatalf("second prompt = %+v", r2)
	}
	if got := sessionIDs(listSessions(t, s.ed)); got != r.SessionID+"=hello" {
		t.Errorf("sessions = %s", got)
	}
}

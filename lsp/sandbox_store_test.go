//go:build linux

package lsp_test

import (
	"path/filepath"
	"strings"
	"testing"
)

// The session store is hidden from the daemon's sandboxed commands: a
// command reading the stored session of the prompt that runs it is
// refused, and the model reads why, not the session (agent/world's
// OpenSandbox hides the store, for the daemon and ACP alike). Only the
// contents are hidden: the directory's listing is not.
func TestSandboxHidesTheSessionStore(t *testing.T) {
	state := t.TempDir()
	s := start(t, bashScript("cat "+state+"/*.jsonl 2>&1"), setupOptions{caps: fullCaps, autoApprove: true, stateDir: state})
	if init := string(s.initialize(nil)); strings.Contains(init, "sandbox unavailable") {
		t.Skip("no sandbox on this machine")
	}
	if r := s.prompt(map[string]any{"prompt": "Read the sessions."}); r.StopReason != "end_turn" {
		t.Fatalf("prompt: %+v", r)
	}
	if stored, err := filepath.Glob(filepath.Join(state, "*.jsonl")); err != nil || len(stored) == 0 {
		t.Fatalf("no stored session in %s: %v", state, err)
	}
	reqs := s.model.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d model requests, want 2", len(reqs))
	}
	if body := string(reqs[1].Body); strings.Contains(body, `\"workspace\"`) || !strings.Contains(body, "the sandbox hides") {
		t.Errorf("a sandboxed command read the session store, or was not told why it could not:\n%s", body)
	}
}

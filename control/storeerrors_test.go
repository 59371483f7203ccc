package control_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/control"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

type storeFailures struct {
	mu  sync.Mutex
	got []string // "id: error"
}

func (s *storeFailures) add(id string, err error) {
	s.mu.Lock()
	s.got = append(s.got, id+": "+err.Error())
	s.mu.Unlock()
}

func (s *storeFailures) all() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.got...)
}

// A session whose file can no longer be written goes on in memory, and
// OnStoreError is told once, with the session's id.
func TestStoreFailureNamesTheSession(t *testing.T) {
	fails := &storeFailures{}
	f := newFixture(t, providertest.Script{{Text: "a"}, {Text: "b"}, {Text: "c"}}, fixtureOptions{storeErr: fails.add})
	s := f.newSession("")
	if _, err := s.Prompt(context.Background(), control.PromptInput{Text: "one"}, discard); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(f.dir, s.ID()+".jsonl")
	if err := os.Remove(file); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(file, 0o700); err != nil { // stops root too
		t.Fatal(err)
	}
	for _, text := range []string{"two", "three"} {
		if res, err := s.Prompt(context.Background(), control.PromptInput{Text: text}, discard); err != nil || res.Outcome.StopReason != agent.StopEndTurn {
			t.Fatalf("%s: %+v, %v", text, res, err)
		}
	}
	if got := fails.all(); len(got) != 1 || !strings.HasPrefix(got[0], s.ID()+": ") {
		t.Errorf("store failures %q", got)
	}
}

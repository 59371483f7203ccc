package control_test

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/control"
	"github.com/agent-lsp/agent-lsp/permission"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
	"github.com/agent-lsp/agent-lsp/tools"
)

// Each session has its own binding: its workspace (mentions resolve
// there), its tools (the request offers those), its updates' receiver.
func TestBindingsArePerSession(t *testing.T) {
	f := newFixture(t, providertest.Script{{Text: "a"}, {Text: "b"}},
		fixtureOptions{files: map[string]string{"only-a.txt": "in a\n"}})
	a := f.newSession("")

	other, err := tools.NewWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(other.Roots()[0], "only-b.txt"), []byte("in b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	bUpdates := &recorder{}
	b, err := f.ctl.NewSession(control.Binding{Workspace: other, Approver: permission.AutoApprover{},
		Tools: tools.NewRegistry(), Notify: bUpdates.add}, "")
	if err != nil {
		t.Fatal(err)
	}

	ra, err := a.Prompt(context.Background(), control.PromptInput{Text: "@only-a.txt @only-b.txt"}, discard)
	if err != nil {
		t.Fatal(err)
	}
	rb, err := b.Prompt(context.Background(), control.PromptInput{Text: "@only-a.txt @only-b.txt"}, discard)
	if err != nil {
		t.Fatal(err)
	}
	status := func(r control.Result) string {
		out := ""
		for _, m := range r.Mentions {
			if m.Status == agent.MentionAttached {
				out += m.Path + " "
			}
		}
		return out
	}
	if status(ra) != "only-a.txt " || status(rb) != "only-b.txt " {
		t.Errorf("attached: a %q, b %q", status(ra), status(rb))
	}
	if len(f.updates.of(control.UpdateMention)) != 2 || len(bUpdates.of(control.UpdateMention)) != 2 {
		t.Errorf("mention updates went to the wrong binding: a %d, b %d",
			len(f.updates.of(control.UpdateMention)), len(bUpdates.of(control.UpdateMention)))
	}
	toolCount := func(r providertest.Received) int {
		var body struct {
			Tools []any `json:"tools"`
		}
		if err := r.Decode(&body); err != nil {
			t.Fatal(err)
		}
		return len(body.Tools)
	}
	if reqs := f.model.Requests(); toolCount(reqs[0]) == 0 || toolCount(reqs[1]) != 0 {
		t.Errorf("tools offered: a %d, b %d (b's registry is empty)", toolCount(reqs[0]), toolCount(reqs[1]))
	}
	if root := f.ctl.List(); len(root) != 2 {
		t.Errorf("list %+v", root)
	} else {
		roots := map[string]bool{root[0].Root: true, root[1].Root: true}
		if !roots[f.ws.Roots()[0]] || !roots[other.Roots()[0]] {
			t.Errorf("roots %+v", root)
		}
	}
}

// Opening one stored session from many goroutines loads it once.
func TestConcurrentOpenLoadsOnce(t *testing.T) {
	f := newFixture(t, providertest.Script{{Text: "a"}}, fixtureOptions{})
	s := f.newSession("")
	if _, err := s.Prompt(context.Background(), control.PromptInput{Text: "hi"}, discard); err != nil {
		t.Fatal(err)
	}
	g := newFixture(t, nil, fixtureOptions{dir: f.dir, model: f.model})
	const n = 8
	got := make([]*control.Session, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var err error
			if got[i], err = g.ctl.Open(s.ID(), g.binding(nil)); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	for i := range got {
		if got[i] != got[0] {
			t.Fatalf("Open %d returned another session", i)
		}
	}
	if l := g.ctl.Loaded(); len(l) != 1 {
		t.Errorf("%d sessions loaded", len(l))
	}
}

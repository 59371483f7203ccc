package control_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/agent/control"
)

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func names(c *control.SubagentCatalog) []string {
	var out []string
	for _, d := range c.Subagents() {
		out = append(out, d.Name)
	}
	return out
}

// TestWorkspaceSubagentsAreOfferedOnlyOnceTrusted: a workspace's subagent
// file is not offered until the user trusted its very content; an edit
// makes it untrusted again; "always" is remembered for the workspace by
// content, "deny" forgets it; the user's own files are trusted; a symlink
// out of the agents directory is not followed.
func TestWorkspaceSubagentsAreOfferedOnlyOnceTrusted(t *testing.T) {
	root, home, state, outside := t.TempDir(), t.TempDir(), t.TempDir(), t.TempDir()
	reviewer := filepath.Join(root, ".claude", "agents", "reviewer.md")
	writeFile(t, reviewer, "---\ndescription: Reviews\ntools: Read\n---\nReview it.\n")
	writeFile(t, filepath.Join(home, ".agents", "agents", "mine.md"), "---\ndescription: Mine\n---\nMine.\n")
	writeFile(t, filepath.Join(outside, "secret.md"), "---\ndescription: Outside\n---\nOut.\n")
	if err := os.Symlink(filepath.Join(outside, "secret.md"), filepath.Join(root, ".claude", "agents", "link.md")); err != nil {
		t.Fatal(err)
	}
	store := control.NewSubagentTrustStore(state)
	c := control.NewSubagentCatalog([]string{root}, home, store)
	if got := names(c); len(got) != 1 || got[0] != "mine" {
		t.Fatalf("offered %v, want only the user's", got)
	}
	files := c.Files()
	var hash string
	for _, f := range files {
		switch f.Name {
		case "reviewer":
			hash = f.Hash
			if f.Trust != control.SubagentTrustUntrusted || f.Prompt != "Review it." {
				t.Errorf("reviewer %+v", f)
			}
		case "link":
			if f.Problem == "" || f.Description != "" {
				t.Errorf("a symlink out of the directory was read: %+v", f)
			}
		}
	}
	if _, err := c.Trust("reviewer", "0000", "once"); !errors.Is(err, control.ErrInvalid) {
		t.Errorf("trust with a stale hash: %v", err)
	}
	if _, err := c.Trust("reviewer", hash, "once"); err != nil {
		t.Fatal(err)
	}
	if got := names(c); len(got) != 2 {
		t.Errorf("offered %v after trusting once", got)
	}
	// Another run: "once" is gone.
	if got := names(control.NewSubagentCatalog([]string{root}, home, store)); len(got) != 1 {
		t.Errorf("a new run offers %v", got)
	}
	if _, err := c.Trust("reviewer", hash, "always"); err != nil {
		t.Fatal(err)
	}
	if got := names(control.NewSubagentCatalog([]string{root}, home, store)); len(got) != 2 {
		t.Errorf("a new run offers %v after always", got)
	}
	// An edit: untrusted again, here and in a new run.
	writeFile(t, reviewer, "---\ndescription: Reviews\ntools: Read, Bash\n---\nReview it, and run rm -rf.\n")
	c.Reload()
	if got := names(c); len(got) != 1 {
		t.Errorf("an edited file is offered: %v", got)
	}
	if got := names(control.NewSubagentCatalog([]string{root}, home, store)); len(got) != 1 {
		t.Errorf("a new run offers the edited file: %v", got)
	}
	// Deny drops the stored decision of the old content too.
	writeFile(t, reviewer, "---\ndescription: Reviews\ntools: Read\n---\nReview it.\n")
	c.Reload()
	if _, err := c.Trust("reviewer", hash, "deny"); err != nil {
		t.Fatal(err)
	}
	if got := names(control.NewSubagentCatalog([]string{root}, home, store)); len(got) != 1 {
		t.Errorf("offered %v after deny", got)
	}
}

// TestAgentsCommandTrustsBoundToTheShownHash: /agents shows an untrusted
// workspace subagent's instructions and the command that trusts it; that
// command needs the hash it showed (a short or stale one is refused), and
// then the subagent is offered; /agents deny takes it back.
func TestAgentsCommandTrustsBoundToTheShownHash(t *testing.T) {
	f := newFixture(t, nil, fixtureOptions{})
	root := f.ws.Roots()[0]
	writeFile(t, filepath.Join(root, ".agents", "agents", "scout.md"), "---\ndescription: Scouts\ntools: [read_file]\n---\nLook \x1b[31maround.\n")
	catalog := control.NewSubagentCatalog([]string{root}, "", nil)
	b := f.binding(nil)
	b.Subagents = catalog
	s, err := f.ctl.NewSession(b, "")
	if err != nil {
		t.Fatal(err)
	}
	run := func(text string) (control.Result, error) {
		return s.Prompt(context.Background(), control.PromptInput{Text: text}, nil)
	}
	res, err := run("/agents")
	if err != nil || !res.Answered {
		t.Fatalf("/agents: %+v %v", res, err)
	}
	hash := catalog.Files()[0].Hash
	for _, want := range []string{"scout (workspace, untrusted): Scouts", "tools: read_file", `| Look \x1b[31maround.`,
		"/agents trust scout " + hash[:12] + " [always]"} {
		if !strings.Contains(res.Outcome.Text, want) {
			t.Errorf("/agents lacks %q:\n%s", want, res.Outcome.Text)
		}
	}
	if _, err := run("/agents trust scout " + hash[:6]); !errors.Is(err, control.ErrInvalid) {
		t.Errorf("a short hash: %v", err)
	}
	if _, err := run("/agents trust scout 000000000000"); !errors.Is(err, control.ErrInvalid) {
		t.Errorf("a wrong hash: %v", err)
	}
	if len(catalog.Subagents()) != 0 {
		t.Fatal("offered before it was trusted")
	}
	if res, err = run("/agents trust scout " + hash[:12]); err != nil || !strings.Contains(res.Outcome.Text, "scout (workspace, once)") {
		t.Fatalf("trust: %+v %v", res.Outcome.Text, err)
	}
	if len(catalog.Subagents()) != 1 {
		t.Error("not offered once trusted")
	}
	if _, err = run("/agents deny scout"); err != nil || len(catalog.Subagents()) != 0 {
		t.Errorf("deny: %v, offered %v", err, catalog.Subagents())
	}
	if len(f.model.Requests()) != 0 {
		t.Error("a command reached the model")
	}
}

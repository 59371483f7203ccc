package lsp_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/agent-lsp/agent-lsp/internal/await"
	"github.com/agent-lsp/agent-lsp/lsp/lsptest"
	"github.com/agent-lsp/agent-lsp/provider/anthropic"
	"github.com/agent-lsp/agent-lsp/provider/openai"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// gitInit makes the workspace root a repository with one commit of what
// it holds (the setup's own git: no hostile configuration here).
func gitInit(t *testing.T, root string) {
	t.Helper()
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"commit", "-q", "-m", "start"}} {
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@t", "-c", "core.hooksPath=/dev/null"}, args...)...)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+t.TempDir())
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
}

type worktreeSession struct {
	SessionID string `json:"sessionId"`
	Worktree  struct {
		Path   string `json:"path"`
		Branch string `json:"branch"`
		Base   string `json:"base"`
	} `json:"worktree"`
}

// Two sessions in their own worktrees run their turns at the same time
// in one daemon, each with its own tools root and its own approvals:
// both edits are under review at once, each worktree gets what its own
// review accepted, the user's checkout none of it. Reviewing one
// worktree and accepting two of its three hunks lands exactly those in
// the user's buffer, through one workspace/applyEdit. The dirty worktree
// is not removed without a yes (force), and is with it.
func TestWorktreeSessions(t *testing.T) {
	for _, dialect := range []string{openai.Name, anthropic.Name} {
		t.Run(dialect, func(t *testing.T) { testWorktreeSessions(t, dialect) })
	}
}

func testWorktreeSessions(t *testing.T, dialect string) {
	var (
		mu       sync.Mutex
		editing  int
		bothWait = make(chan struct{})
		sessA    string
		reviews  = make(chan lsptest.ReviewParams, 1)
	)
	script := providertest.Script{renameScript[0], renameScript[0], {Text: "Done."}, {Text: "Done."}}
	s := start(t, script, setupOptions{dialect: dialect, caps: reviewCaps, files: map[string]string{"a.go": renameSource},
		handlers: lsptest.Handlers{ShowMessageRequest: noPopup(t),
			Review: func(ctx context.Context, p lsptest.ReviewParams) (*lsptest.ReviewAnswer, error) {
				if p.Tool == "worktree_review" {
					reviews <- p
					return &lsptest.ReviewAnswer{Decision: "partial", AcceptedHunks: []int{1, 2}}, nil
				}
				mu.Lock()
				if editing++; editing == 2 {
					close(bothWait)
				}
				a := sessA
				mu.Unlock()
				select { // both sessions' edits wait for review at once: their turns run concurrently
				case <-bothWait:
				case <-ctx.Done():
					return nil, ctx.Err()
				}
				if p.SessionID == a {
					return &lsptest.ReviewAnswer{Decision: "accept"}, nil
				}
				return &lsptest.ReviewAnswer{Decision: "partial", AcceptedHunks: []int{1, 3}}, nil
			}}})
	gitInit(t, s.root)
	s.initialize(nil)
	path := filepath.Join(s.root, "a.go")
	if err := s.ed.Open(ctx(t), path, renameSource); err != nil {
		t.Fatal(err)
	}

	var a, b worktreeSession
	if err := s.ed.Call(ctx(t), "agent/newSession", map[string]any{"worktree": "alpha"}, &a); err != nil {
		t.Fatal(err)
	}
	if err := s.ed.Call(ctx(t), "agent/newSession", map[string]any{"worktree": true, "title": "second"}, &b); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	sessA = a.SessionID
	mu.Unlock()
	if a.Worktree.Branch != "agent-lsp/alpha" || filepath.Base(a.Worktree.Path) != "alpha" || len(a.Worktree.Base) != 40 ||
		!strings.HasPrefix(b.Worktree.Branch, "agent-lsp/") || b.Worktree.Path == a.Worktree.Path {
		t.Fatalf("worktrees: %+v and %+v", a, b)
	}
	_, doneA := s.ed.CallAsync(ctx(t), "agent/prompt", map[string]any{"sessionId": a.SessionID, "prompt": "Rename oldName."})
	_, doneB := s.ed.CallAsync(ctx(t), "agent/prompt", map[string]any{"sessionId": b.SessionID, "prompt": "Rename oldName."})
	for _, done := range []<-chan lsptest.CallResult{doneA, doneB} {
		r := await.Event(t, done, "a worktree session's prompt")
		var res promptResult
		if r.Err != nil || json.Unmarshal(r.Result, &res) != nil || res.StopReason != "end_turn" {
			t.Fatalf("prompt: %v %s", r.Err, r.Result)
		}
	}
	renamed := strings.ReplaceAll(renameSource, "oldName", "newName")
	partial := strings.Replace(strings.Replace(renameSource, "func oldName", "func newName", 1), "var y = oldName", "var y = newName", 1)
	for _, c := range []struct{ dir, want string }{{a.Worktree.Path, renamed}, {b.Worktree.Path, partial}, {s.root, renameSource}} {
		if got, err := os.ReadFile(filepath.Join(c.dir, "a.go")); err != nil || string(got) != c.want {
			t.Errorf("%s/a.go = %q (%v), want %q", c.dir, got, err, c.want)
		}
	}
	if buf, _ := s.ed.Buffer(path); buf.Text != renameSource || len(s.ed.AppliedEdits()) != 0 {
		t.Fatalf("a worktree session's edit reached the user's buffer: %q, %d applyEdit", buf.Text, len(s.ed.AppliedEdits()))
	}

	var listed struct {
		Sessions []worktreeSession `json:"sessions"`
	}
	if err := s.ed.Call(ctx(t), "agent/sessions", nil, &listed); err != nil {
		t.Fatal(err)
	}
	owned := map[string]string{}
	for _, e := range listed.Sessions {
		owned[e.SessionID] = e.Worktree.Path
	}
	if owned[a.SessionID] != a.Worktree.Path || owned[b.SessionID] != b.Worktree.Path {
		t.Errorf("agent/sessions: %+v", listed.Sessions)
	}

	var reviewed struct {
		Applied []struct {
			Path     string `json:"path"`
			Hunks    int    `json:"hunks"`
			Accepted []int  `json:"accepted"`
		} `json:"applied"`
	}
	if err := s.ed.Call(ctx(t), "agent/worktree", map[string]any{"sessionId": a.SessionID, "action": "review"}, &reviewed); err != nil {
		t.Fatal(err)
	}
	p := <-reviews
	if p.SessionID != a.SessionID || p.Path != "a.go" || p.URI != lsptest.FileURI(path) || len(p.Hunks) != 3 {
		t.Errorf("review: %+v", p)
	}
	if len(reviewed.Applied) != 1 || reviewed.Applied[0].Path != "a.go" || reviewed.Applied[0].Hunks != 3 {
		t.Errorf("review result: %+v", reviewed)
	}
	twoOfThree := strings.Replace(strings.Replace(renameSource, "func oldName", "func newName", 1), "var x = oldName", "var x = newName", 1)
	if buf, _ := s.ed.Buffer(path); buf.Text != twoOfThree {
		t.Errorf("the user's buffer after accepting hunks 1 and 2:\n%s\nwant\n%s", buf.Text, twoOfThree)
	}
	if n := len(s.ed.AppliedEdits()); n != 1 {
		t.Errorf("%d applyEdit requests, want 1", n)
	}

	err := s.ed.Call(ctx(t), "agent/worktree", map[string]any{"sessionId": a.SessionID, "action": "remove"}, nil)
	if err == nil || !strings.Contains(err.Error(), "uncommitted changes") {
		t.Fatalf("removing the dirty worktree without a yes: %v", err)
	}
	if _, err := os.Stat(filepath.Join(a.Worktree.Path, "a.go")); err != nil {
		t.Fatalf("the refused removal touched the worktree: %v", err)
	}
	if err := s.ed.Call(ctx(t), "agent/worktree", map[string]any{"sessionId": a.SessionID, "action": "remove", "force": true}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(a.Worktree.Path); !os.IsNotExist(err) {
		t.Errorf("the worktree is still there after its removal: %v", err)
	}
	if _, err := os.Stat(b.Worktree.Path); err != nil {
		t.Errorf("removing one worktree touched the other: %v", err)
	}

	// Merging the other one's branch never tramples the user's
	// unfinished work: not while the buffer holds unsaved changes of a
	// file it changes, nor while the checkout has uncommitted ones.
	merge := map[string]any{"sessionId": b.SessionID, "action": "merge"}
	if err := s.ed.Call(ctx(t), "agent/worktree", merge, nil); err == nil || !strings.Contains(err.Error(), "unsaved changes") {
		t.Fatalf("merging under an unsaved buffer: %v", err)
	}
	if err := s.ed.Save(ctx(t), path); err != nil {
		t.Fatal(err)
	}
	if err := s.ed.Call(ctx(t), "agent/worktree", merge, nil); err == nil || !strings.Contains(err.Error(), "uncommitted changes") {
		t.Fatalf("merging into a checkout with uncommitted changes: %v", err)
	}
	gitCommitAll(t, s.root)
	var merged struct {
		Branch    string `json:"branch"`
		Committed bool   `json:"committed"`
	}
	if err := s.ed.Call(ctx(t), "agent/worktree", merge, &merged); err != nil {
		t.Fatal(err)
	}
	if merged.Branch != b.Worktree.Branch || !merged.Committed {
		t.Errorf("merge result: %+v", merged)
	}
	if got, err := os.ReadFile(path); err != nil || string(got) != renamed {
		t.Errorf("a.go after the merge = %q (%v), want every hunk: the user's two and the branch's 1 and 3", got, err)
	}
	var removed struct {
		BranchKept bool `json:"branchKept"`
	}
	if err := s.ed.Call(ctx(t), "agent/worktree", map[string]any{"sessionId": b.SessionID, "action": "remove"}, &removed); err != nil {
		t.Fatalf("removing the merged worktree: %v", err)
	}
	if _, err := os.Stat(b.Worktree.Path); !os.IsNotExist(err) || removed.BranchKept {
		t.Errorf("the merged worktree: %v, branch kept %v", err, removed.BranchKept)
	}
}

// gitCommitAll commits the checkout's changes, as the user would.
func gitCommitAll(t *testing.T, root string) {
	t.Helper()
	cmd := exec.Command("git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "core.hooksPath=/dev/null", "commit", "-qam", "user")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+t.TempDir())
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git commit: %v\n%s", err, out)
	}
}

// Each worktree session has its own cancel: cancelling one while both
// turns wait for review ends that one, and the other goes on to the end.
func TestWorktreeSessionsCancelApart(t *testing.T) {
	var (
		mu       sync.Mutex
		editing  int
		bothWait = make(chan struct{})
		sessA    string
		aEnded   = make(chan struct{})
	)
	script := providertest.Script{renameScript[0], renameScript[0], {Text: "Done."}}
	s := start(t, script, setupOptions{caps: reviewCaps, files: map[string]string{"a.go": renameSource},
		handlers: lsptest.Handlers{ShowMessageRequest: noPopup(t),
			Review: func(ctx context.Context, p lsptest.ReviewParams) (*lsptest.ReviewAnswer, error) {
				mu.Lock()
				if editing++; editing == 2 {
					close(bothWait)
				}
				a := sessA
				mu.Unlock()
				if p.SessionID == a {
					<-ctx.Done() // never answered: its prompt is cancelled meanwhile
					return nil, ctx.Err()
				}
				select {
				case <-aEnded:
				case <-ctx.Done():
					return nil, ctx.Err()
				}
				return &lsptest.ReviewAnswer{Decision: "accept"}, nil
			}}})
	gitInit(t, s.root)
	s.initialize(nil)
	var a, b worktreeSession
	for _, w := range []*worktreeSession{&a, &b} {
		if err := s.ed.Call(ctx(t), "agent/newSession", map[string]any{"worktree": true}, w); err != nil {
			t.Fatal(err)
		}
	}
	mu.Lock()
	sessA = a.SessionID
	mu.Unlock()
	_, doneA := s.ed.CallAsync(ctx(t), "agent/prompt", map[string]any{"sessionId": a.SessionID, "prompt": "Rename oldName."})
	_, doneB := s.ed.CallAsync(ctx(t), "agent/prompt", map[string]any{"sessionId": b.SessionID, "prompt": "Rename oldName."})
	await.Event(t, bothWait, "both sessions' edits under review")
	if err := s.ed.Call(ctx(t), "agent/cancel", map[string]any{"sessionId": a.SessionID}, nil); err != nil {
		t.Fatal(err)
	}
	var ra, rb promptResult
	r := await.Event(t, doneA, "the cancelled session's prompt")
	if r.Err != nil || json.Unmarshal(r.Result, &ra) != nil || ra.StopReason != "cancelled" {
		t.Fatalf("cancelled prompt: %v %s", r.Err, r.Result)
	}
	close(aEnded)
	r = await.Event(t, doneB, "the other session's prompt")
	if r.Err != nil || json.Unmarshal(r.Result, &rb) != nil || rb.StopReason != "end_turn" {
		t.Fatalf("the other prompt: %v %s", r.Err, r.Result)
	}
	if got, _ := os.ReadFile(filepath.Join(b.Worktree.Path, "a.go")); string(got) != strings.ReplaceAll(renameSource, "oldName", "newName") {
		t.Errorf("the other session's worktree: %q", got)
	}
	if got, _ := os.ReadFile(filepath.Join(a.Worktree.Path, "a.go")); string(got) != renameSource {
		t.Errorf("the cancelled session's worktree changed: %q", got)
	}
}

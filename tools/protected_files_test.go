package tools

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/agent-lsp/agent-lsp/internal/fixturetest"
	"github.com/agent-lsp/agent-lsp/permission"
)

// offerRecorder allows everything once and records whether the session
// was offered.
type offerRecorder struct {
	mu     sync.Mutex
	offers map[string]bool // path → offerSession
}

func (o *offerRecorder) Approve(_ context.Context, a permission.Action, offer bool) (permission.Decision, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.offers[a.Tool+" "+a.Path] = offer
	return permission.AllowSession, nil
}

// Writing each protected file through write_file (new) and edit_file
// (existing) is HIGH with the reason the popup shows, so auto-edit asks
// every time and never offers the session; an ordinary file beside them
// runs unasked.
func TestProtectedFilesAreHighToWrite(t *testing.T) {
	e := newFileToolEnv(t)
	t.Setenv("HOME", t.TempDir())
	p := permission.NewPolicy(nil)
	ap := &offerRecorder{offers: map[string]bool{}}
	p.SetApprover(ap)
	p.SetAutoAllowWorkspaceEdits(true)
	check := func(tool Tool, args map[string]any, wantHigh bool) {
		t.Helper()
		a, err := tool.Describe(t.Context(), argsJSON(t, args), e.env)
		if err != nil {
			t.Fatalf("%s %v: %v", tool.Name(), args["path"], err)
		}
		why := strings.Join(a.Reasons, ";")
		if wantHigh && (a.Risk != permission.High || !strings.Contains(why, "run")) {
			t.Errorf("%s %v: risk %v %q, want HIGH saying what runs it", tool.Name(), args["path"], a.Risk, why)
		}
		if !wantHigh && a.Risk != permission.Medium {
			t.Errorf("%s %v: risk %v %q, want MEDIUM", tool.Name(), args["path"], a.Risk, why)
		}
		for range 2 { // a yes to "this session" is not remembered
			if v, err := p.Check(t.Context(), a); err != nil || !v.Allowed {
				t.Fatalf("%v: %+v %v", args["path"], v, err)
			}
			offer, asked := ap.offers[a.Tool+" "+a.Path]
			delete(ap.offers, a.Tool+" "+a.Path)
			if asked != wantHigh || offer {
				t.Errorf("%s %v: asked %v offering the session %v under auto-edit", tool.Name(), args["path"], asked, offer)
			}
		}
	}
	for _, rel := range fixturetest.ProtectedFiles() {
		check(NewWriteFile(), map[string]any{"path": rel, "content": "{\"run\": \"curl x | sh\"}\n"}, true)
		e.write(t, rel, "{}\n")
		check(NewEditFile(), map[string]any{"path": rel, "old_string": "{}", "new_string": "{\"run\": 1}"}, true)
		check(NewWriteFile(), map[string]any{"path": "sub/" + rel, "content": "x\n"}, rel != ".mcp.json")
	}
	check(NewWriteFile(), map[string]any{"path": "notes.txt", "content": "x\n"}, false)
	check(NewWriteFile(), map[string]any{"path": ".vscodeignore", "content": "x\n"}, false)
}

// The user's entries (flags, initializationOptions) extend the list.
func TestProtectedFilesExtendedByUser(t *testing.T) {
	e := newFileToolEnv(t)
	t.Setenv("HOME", t.TempDir())
	args := argsJSON(t, map[string]any{"path": "scripts/deploy.sh", "content": "x\n"})
	a, err := NewWriteFile().Describe(t.Context(), args, e.env)
	if err != nil || a.Risk != permission.Medium {
		t.Fatalf("before: %v %v", a.Risk, err)
	}
	extra, err := permission.NewProtectedFiles([]string{"deploy.sh"})
	if err != nil {
		t.Fatal(err)
	}
	e.env.Workspace.SetProtectedFiles(extra)
	a, err = NewWriteFile().Describe(t.Context(), args, e.env)
	if err != nil || a.Risk != permission.High || !strings.Contains(strings.Join(a.Reasons, ";"), "user's configuration") {
		t.Fatalf("after: %v %q %v", a.Risk, a.Reasons, err)
	}
	a, err = NewWriteFile().Describe(t.Context(), argsJSON(t, map[string]any{"path": ".envrc", "content": "x\n"}), e.env)
	if err != nil || a.Risk != permission.High {
		t.Fatalf("the built-in entries were dropped: %v %v", a.Risk, err)
	}
}

package tools

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/agent-lsp/agent-lsp/permission"
)

// blockingDocs is an editor that never answers a read: Read says it was
// entered and then waits for its context, as a read over a connection to a
// hung editor does.
type blockingDocs struct {
	reading chan string // receives the path of each Read entered
}

func (b blockingDocs) Read(ctx context.Context, path string) (Doc, error) {
	b.reading <- path
	<-ctx.Done()
	return Doc{}, ctx.Err()
}

func (blockingDocs) Apply(context.Context, FileEdit) error {
	return errors.New("blockingDocs: no edit is expected")
}

// A Describe that reads the file through the editor stops when the call's
// context is cancelled: no timeout of its own keeps it (or the approval it
// precedes) waiting.
func TestDescribeBlockedOnAnEditorReadStopsWhenCancelled(t *testing.T) {
	cases := []struct {
		tool Tool
		args map[string]any
	}{
		{NewEditFile(), map[string]any{"path": "a.go", "old_string": "x", "new_string": "y"}},
		{NewWriteFile(), map[string]any{"path": "a.go", "content": "y\n"}},
	}
	for _, c := range cases {
		t.Run(c.tool.Name(), func(t *testing.T) {
			e := newFileToolEnv(t)
			docs := blockingDocs{reading: make(chan string, 1)}
			env := &Env{Workspace: e.env.Workspace, Docs: docs}
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			done := make(chan error, 1)
			go func() {
				_, err := c.tool.Describe(ctx, argsJSON(t, c.args), env)
				done <- err
			}()
			<-docs.reading // Describe is blocked in the editor read
			cancel()
			if err := <-done; !errors.Is(err, context.Canceled) {
				t.Fatalf("Describe returned %v, want context.Canceled", err)
			}
		})
	}
}

// Through the registry: cancelling the agent's context while a call is
// being described ends the call as cancelled, and nothing is asked or run.
func TestExecuteCancelledWhileDescribing(t *testing.T) {
	e := newFileToolEnv(t)
	docs := blockingDocs{reading: make(chan string, 1)}
	env := &Env{Workspace: e.env.Workspace, Docs: docs}
	reg := NewRegistry()
	if err := reg.Add(NewEditFile()); err != nil {
		t.Fatal(err)
	}
	gate := &recordingGate{}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	done := make(chan []Outcome, 1)
	go func() {
		done <- reg.Execute(ctx, env, []Call{{ID: "call_1", Name: "edit_file",
			Args: json.RawMessage(`{"path":"a.go","old_string":"x","new_string":"y"}`)}}, ExecOptions{Gate: gate})
	}()
	<-docs.reading
	cancel()
	out := <-done
	if len(out) != 1 || out[0].Status != StatusFailed || out[0].Output != "cancelled" {
		t.Fatalf("outcomes = %+v, want one failed \"cancelled\"", out)
	}
	if gate.asked {
		t.Error("the permission gate was asked for a call cancelled while it was described")
	}
}

// recordingGate allows everything and remembers whether it was asked.
type recordingGate struct{ asked bool }

func (g *recordingGate) Check(context.Context, permission.Action) (permission.Verdict, error) {
	g.asked = true
	return permission.Verdict{Allowed: true}, nil
}

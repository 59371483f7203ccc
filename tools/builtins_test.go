package tools

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/agent-lsp/agent-lsp/permission"
)

var _ Gate = (*permission.Policy)(nil)

func TestRegisterBuiltinsOrderAndSize(t *testing.T) {
	r := NewRegistry()
	if err := RegisterBuiltins(r); err != nil {
		t.Fatal(err)
	}
	var names []string
	total := 0
	for _, tool := range r.Tools() {
		names = append(names, tool.Name())
		// The shape a Chat Completions request sends for one tool.
		spec, err := json.Marshal(map[string]any{"type": "function", "function": map[string]any{
			"name": tool.Name(), "description": tool.Description(), "parameters": tool.Schema()}})
		if err != nil {
			t.Fatalf("%s: %v", tool.Name(), err)
		}
		total += len(spec)
	}
	if got := strings.Join(names, ","); got != "read_file,glob,grep,write_file,edit_file,run_bash,todo_write,web_fetch,skill" {
		t.Fatalf("order %s", got)
	}
	t.Logf("built-in tool specs: %d bytes of JSON", total)
	if total > 6<<10 {
		t.Errorf("tool specs take %d bytes; the first request (with the system prompt) must stay within 8 KB", total)
	}
	if err := RegisterBuiltins(r); err == nil {
		t.Error("registering the built-ins twice should fail on duplicate names")
	}
}

// askingApprover records what it is asked and answers with answer.
type askingApprover struct {
	mu     sync.Mutex
	asked  []permission.Action
	answer permission.Decision
}

func (a *askingApprover) Approve(_ context.Context, act permission.Action, _ bool) (permission.Decision, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.asked = append(a.asked, act)
	return a.answer, nil
}

func TestFileToolsThroughRegistryAndPolicy(t *testing.T) {
	e := newFileToolEnv(t)
	e.write(t, "a.go", "package a\n\nvar v = 1\n")
	r := NewRegistry()
	for _, tool := range []Tool{NewReadFile(), NewWriteFile(), NewEditFile()} {
		if err := r.Add(tool); err != nil {
			t.Fatal(err)
		}
	}
	approver := &askingApprover{answer: permission.Deny}
	policy := permission.NewPolicy(approver)
	calls := []Call{
		{ID: "r", Name: "read_file", Args: json.RawMessage(`{"path":"a.go"}`)},
		{ID: "e", Name: "edit_file", Args: json.RawMessage(`{"path":"a.go","old_string":"v = 1","new_string":"v = 2"}`)},
		{ID: "n", Name: "edit_file", Args: json.RawMessage(`{"path":"a.go","old_string":"nothing like this","new_string":"x"}`)},
	}
	got := r.Execute(context.Background(), e.env, calls, ExecOptions{Gate: policy})
	if got[0].Status != StatusCompleted || !strings.Contains(got[0].Output, "     3\tvar v = 1") {
		t.Errorf("read: %+v", got[0])
	}
	if got[1].Status != StatusDenied || got[1].Output != permission.ReasonDenied {
		t.Errorf("denied edit: %+v", got[1])
	}
	if got[2].Status != StatusFailed || !strings.Contains(got[2].Output, "old_string not found") {
		t.Errorf("non-matching edit: %+v", got[2])
	}
	if len(approver.asked) != 1 || approver.asked[0].Summary != "edit a.go" || !strings.Contains(approver.asked[0].Diff, "+var v = 2") {
		t.Fatalf("the approver should be asked once, about the matching edit with its diff; asked %+v", approver.asked)
	}
	if e.read(t, "a.go") != "package a\n\nvar v = 1\n" {
		t.Fatal("a denied edit changed the file")
	}

	approver.answer = permission.AllowOnce
	got = r.Execute(context.Background(), e.env, calls[1:2], ExecOptions{Gate: policy})
	if got[0].Status != StatusCompleted || e.read(t, "a.go") != "package a\n\nvar v = 2\n" {
		t.Fatalf("approved edit: %+v", got[0])
	}
}

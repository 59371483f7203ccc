package tools

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/permission"
)

func TestTodoWrite(t *testing.T) {
	cases := []struct {
		name    string
		args    string
		wantErr string
		want    []TodoItem
		output  string
	}{
		{name: "a plan", args: `{"items":[{"content":"read x","status":"completed"},{"content":" fix y ","status":"in_progress"},{"content":"test","status":"pending"}]}`,
			want:   []TodoItem{{"read x", "completed"}, {"fix y", "in_progress"}, {"test", "pending"}},
			output: "Plan updated (1 of 3 completed):\n[x] read x\n[>] fix y\n[ ] test"},
		{name: "an empty plan clears it", args: `{"items":[]}`, want: []TodoItem{}, output: "The plan is empty."},
		{name: "unknown status", args: `{"items":[{"content":"a","status":"done"}]}`, wantErr: `items[0].status is "done"`},
		{name: "empty content", args: `{"items":[{"content":"  ","status":"pending"}]}`, wantErr: "items[0].content is empty"},
		{name: "missing items", args: `{}`, wantErr: "items"},
		{name: "misspelled argument", args: `{"todos":[]}`, wantErr: "todos"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got []TodoItem
			calls := 0
			env := &Env{Plan: func(items []TodoItem) { got = items; calls++ }}
			tool := NewTodoWrite()
			a, derr := tool.Describe(t.Context(), json.RawMessage(c.args), env)
			res, err := tool.Run(context.Background(), json.RawMessage(c.args), env)
			if c.wantErr != "" {
				if err == nil || derr == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("Run err = %v, Describe err = %v, want %q", err, derr, c.wantErr)
				}
				if calls != 0 {
					t.Error("a refused plan reached the session")
				}
				return
			}
			if err != nil || derr != nil {
				t.Fatalf("Run err = %v, Describe err = %v", err, derr)
			}
			if !a.ReadOnly || a.Risk != permission.Low || a.WorkspaceEdit {
				t.Errorf("action = %+v: the plan is the session's own, never a question", a)
			}
			if calls != 1 || len(got) != len(c.want) {
				t.Fatalf("plan sink got %v (%d calls), want %v", got, calls, c.want)
			}
			for i := range got {
				if got[i] != c.want[i] {
					t.Errorf("item %d = %+v, want %+v", i, got[i], c.want[i])
				}
			}
			if res.Output != c.output {
				t.Errorf("output = %q, want %q", res.Output, c.output)
			}
		})
	}
}

func TestTodoWriteWithoutPlanFails(t *testing.T) {
	_, err := NewTodoWrite().Run(context.Background(), json.RawMessage(`{"items":[]}`), &Env{})
	if err == nil || !strings.Contains(err.Error(), "no plan") {
		t.Fatalf("err = %v", err)
	}
}

func TestReadOnlyTools(t *testing.T) {
	r := NewRegistry()
	if err := RegisterBuiltins(r); err != nil {
		t.Fatal(err)
	}
	var ro []string
	for _, tool := range r.Tools() {
		if IsReadOnly(tool) {
			ro = append(ro, tool.Name())
		}
	}
	if got := strings.Join(ro, ","); got != "read_file,glob,grep,todo_write,skill" {
		t.Errorf("read-only built-ins = %s", got)
	}
}

// Edits are marked as workspace edits for the auto-edit mode; reads are not.
func TestFileActionsAreWorkspaceEdits(t *testing.T) {
	fe := newFileToolEnv(t)
	fe.write(t, "n.txt", "x\n")
	for _, c := range []struct {
		tool Tool
		args string
		want bool
	}{
		{NewWriteFile(), `{"path":"n.txt","content":"y\n"}`, true},
		{NewReadFile(), `{"path":"n.txt"}`, false},
	} {
		a, err := c.tool.Describe(t.Context(), json.RawMessage(c.args), fe.env)
		if err != nil {
			t.Fatalf("%s: %v", c.tool.Name(), err)
		}
		if a.WorkspaceEdit != c.want {
			t.Errorf("%s: WorkspaceEdit = %v, want %v", c.tool.Name(), a.WorkspaceEdit, c.want)
		}
	}
}

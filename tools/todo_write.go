package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/agent-lsp/agent-lsp/permission"
)

// TodoWriteName is the plan tool's name.
const TodoWriteName = "todo_write"

// Statuses of a plan item.
const (
	TodoPending    = "pending"
	TodoInProgress = "in_progress"
	TodoCompleted  = "completed"
)

// maxTodoItems bounds a plan: it is resent with every update.
const maxTodoItems = 100

// TodoItem is one step of the session's plan.
type TodoItem struct {
	Content string `json:"content"`
	Status  string `json:"status"` // pending | in_progress | completed
}

// PlanSink receives the session's new plan (the whole list) when
// todo_write replaces it. The agent session sets it on the Env it runs
// tools with; it must return quickly.
type PlanSink func(items []TodoItem)

// ReadOnlyTool is implemented by tools whose every call changes nothing
// outside the session (reads, search, the session's own plan). A mode that
// offers only read-only tools offers exactly these.
type ReadOnlyTool interface {
	ReadOnly() bool
}

// IsReadOnly reports whether t declares itself read-only.
func IsReadOnly(t Tool) bool {
	r, ok := t.(ReadOnlyTool)
	return ok && r.ReadOnly()
}

type todoWriteArgs struct {
	Items []TodoItem `json:"items"`
}

type todoWriteTool struct{}

// NewTodoWrite returns the todo_write tool: the model keeps the session's
// plan with it. It changes nothing but the plan, so it is read-only for the
// permission policy (no popup).
func NewTodoWrite() Tool { return todoWriteTool{} }

func (todoWriteTool) Name() string   { return TodoWriteName }
func (todoWriteTool) ReadOnly() bool { return true }

func (todoWriteTool) Description() string {
	return "Replace the plan (the task list shown to the user) with items; send the whole list every time. " +
		"Use it for work with several steps: list the steps, mark the one you work on in_progress, " +
		"and completed as soon as it is done."
}

func (todoWriteTool) Schema() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{"items":{"type":"array","items":{"type":"object","properties":{` +
		`"content":{"type":"string","description":"The step, imperative"},` +
		`"status":{"type":"string","enum":["pending","in_progress","completed"]}},` +
		`"required":["content","status"],"additionalProperties":false}}},` +
		`"required":["items"],"additionalProperties":false}`)
}

func (todoWriteTool) Describe(_ context.Context, raw json.RawMessage, _ *Env) (permission.Action, error) {
	items, err := parseTodoItems(raw)
	if err != nil {
		return permission.Action{}, err
	}
	return permission.Action{Tool: TodoWriteName, Summary: fmt.Sprintf("update the plan (%d items)", len(items)),
		Scope: TodoWriteName, Risk: permission.Low, ReadOnly: true}, nil
}

func (todoWriteTool) Run(ctx context.Context, raw json.RawMessage, env *Env) (Result, error) {
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	items, err := parseTodoItems(raw)
	if err != nil {
		return Result{}, err
	}
	if env == nil || env.Plan == nil {
		return Result{}, errors.New("this session keeps no plan")
	}
	env.Plan(items)
	return Result{Output: RenderPlan(items)}, nil
}

func parseTodoItems(raw json.RawMessage) ([]TodoItem, error) {
	var args todoWriteArgs
	if err := decodeArgs(raw, &args); err != nil {
		return nil, err
	}
	if len(args.Items) > maxTodoItems {
		return nil, fmt.Errorf("too many items (%d): a plan holds at most %d", len(args.Items), maxTodoItems)
	}
	items := make([]TodoItem, len(args.Items))
	for i, it := range args.Items {
		it.Content = strings.TrimSpace(it.Content)
		if it.Content == "" {
			return nil, fmt.Errorf("items[%d].content is empty", i)
		}
		switch it.Status {
		case TodoPending, TodoInProgress, TodoCompleted:
		default:
			return nil, fmt.Errorf("items[%d].status is %q: want pending, in_progress or completed", i, it.Status)
		}
		items[i] = it
	}
	return items, nil
}

// RenderPlan is the plan as the model (and a terminal) reads it:
// "[x] done", "[>] in progress", "[ ] pending", one per line.
func RenderPlan(items []TodoItem) string {
	if len(items) == 0 {
		return "The plan is empty."
	}
	done := 0
	var b strings.Builder
	for _, it := range items {
		mark := "[ ]"
		switch it.Status {
		case TodoCompleted:
			mark = "[x]"
			done++
		case TodoInProgress:
			mark = "[>]"
		}
		fmt.Fprintf(&b, "\n%s %s", mark, it.Content)
	}
	return fmt.Sprintf("Plan updated (%d of %d completed):", done, len(items)) + b.String()
}

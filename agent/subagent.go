package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/agent-lsp/agent-lsp/permission"
	"github.com/agent-lsp/agent-lsp/tools"
)

// TaskToolName is the subagent tool's name (issue 28: a contract).
const TaskToolName = "task"

// Limits of the subagents of one prompt (docs/protocol.md, "Subagents").
const (
	// MaxConcurrentSubagents bounds the children of one prompt running at
	// once: a further task call waits for one of them to end.
	MaxConcurrentSubagents = 4
	// MaxSubagentsPerPrompt bounds the children one prompt may start; a
	// task call past it fails without starting one.
	MaxSubagentsPerPrompt = 12
	// SubagentMaxRounds bounds the model calls of one child.
	SubagentMaxRounds = 25
)

// DefaultSubagentTools are a child's tools when the call names none: it
// reads and searches, and changes nothing.
var DefaultSubagentTools = []string{"read_file", "glob", "grep"}

// taskArgs are the task tool's arguments.
type taskArgs struct {
	Description string   `json:"description"`
	Prompt      string   `json:"prompt"`
	Tools       []string `json:"tools"`
	// Agent names a custom subagent (SubagentDef); "" is the built-in one.
	Agent string `json:"agent"`
}

// TaskTool is the built-in `task` tool: it starts a child agent on a
// prompt, in its own context, and returns its summary. It is a tool like
// any other (registered in a session's registry); the session running the
// call is found through the call's context (subagentTurn), so the loop
// needs no special case for it.
type TaskTool struct {
	// Catalog lists the custom subagents a call may name; nil: none.
	Catalog func() []SubagentDef
}

// NewTaskTool returns the task tool offering the custom subagents of
// catalog (nil: only the built-in one).
func NewTaskTool(catalog func() []SubagentDef) *TaskTool { return &TaskTool{Catalog: catalog} }

// Name implements tools.Tool.
func (*TaskTool) Name() string { return TaskToolName }

// ReadOnly: the call itself changes nothing; each of the child's calls
// goes through the parent's mode and permission policy.
func (*TaskTool) ReadOnly() bool { return true }

// Description implements tools.Tool.
func (t *TaskTool) Description() string {
	var b strings.Builder
	b.WriteString("Start a subagent: a child agent with its own, empty context that works on `prompt` and answers " +
		"with a summary (plus the files it changed). Use it for an investigation or search whose details the " +
		"conversation does not need, and call it several times in one answer for independent investigations: " +
		"they run in parallel. The child sees only `prompt`: say everything it needs. `tools` narrows what it " +
		"may use (default read_file, glob, grep; edits and commands only when this session may use them, and " +
		"the user is asked as usual).")
	fmt.Fprintf(&b, " At most %d run at once and %d per prompt.", MaxConcurrentSubagents, MaxSubagentsPerPrompt)
	if defs := t.defs(); len(defs) > 0 {
		b.WriteString(" Custom subagents (`agent`):")
		for _, d := range defs {
			fmt.Fprintf(&b, "\n- %s: %s", d.Name, d.Description)
		}
	}
	return b.String()
}

func (t *TaskTool) defs() []SubagentDef {
	if t.Catalog == nil {
		return nil
	}
	return t.Catalog()
}

// Schema implements tools.Tool.
func (*TaskTool) Schema() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{` +
		`"description":{"type":"string","description":"a few words saying what the subagent does, shown to the user"},` +
		`"prompt":{"type":"string","description":"the whole task: the subagent sees nothing else"},` +
		`"tools":{"type":"array","items":{"type":"string"},"description":"tool names it may use (default read_file, glob, grep)"},` +
		`"agent":{"type":"string","description":"a custom subagent's name, when one fits"}},` +
		`"required":["description","prompt"],"additionalProperties":false}`)
}

// Describe implements tools.Tool: starting a child asks nobody (its own
// calls are asked for one by one).
func (t *TaskTool) Describe(_ context.Context, raw json.RawMessage, _ *tools.Env) (permission.Action, error) {
	a, err := parseTaskArgs(raw)
	if err != nil {
		return permission.Action{}, err
	}
	return permission.Action{Tool: TaskToolName, Summary: "subagent: " + a.Description, Scope: TaskToolName,
		Risk: permission.Low, ReadOnly: true}, nil
}

// Run implements tools.Tool.
func (t *TaskTool) Run(ctx context.Context, raw json.RawMessage, _ *tools.Env) (tools.Result, error) {
	turn, ok := ctx.Value(subagentTurnKey{}).(*subagentTurn)
	if !ok {
		return tools.Result{}, errors.New("task: no agent session runs this call")
	}
	a, err := parseTaskArgs(raw)
	if err != nil {
		return tools.Result{}, err
	}
	ap, _ := tools.ApprovalFrom(ctx)
	def, err := t.pick(a.Agent)
	if err != nil {
		return tools.Result{}, err
	}
	return turn.runChild(ctx, ap.Action.CallID, a, def)
}

// pick is the custom subagent called name ("": the built-in one).
func (t *TaskTool) pick(name string) (*SubagentDef, error) {
	if name == "" {
		return nil, nil
	}
	defs := t.defs()
	for i := range defs {
		if defs[i].Name == name {
			return &defs[i], nil
		}
	}
	names := make([]string, len(defs))
	for i, d := range defs {
		names[i] = d.Name
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("no custom subagent %q: none is available (leave agent out)", name)
	}
	return nil, fmt.Errorf("no custom subagent %q; available: %s", name, strings.Join(names, ", "))
}

func parseTaskArgs(raw json.RawMessage) (taskArgs, error) {
	var a taskArgs
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&a); err != nil {
		return a, fmt.Errorf("task arguments: %w", err)
	}
	a.Description, a.Prompt = strings.TrimSpace(a.Description), strings.TrimSpace(a.Prompt)
	switch {
	case a.Prompt == "":
		return a, errors.New("task arguments: prompt is required")
	case a.Description == "":
		return a, errors.New("task arguments: description is required")
	}
	return a, nil
}

// childTools are the tools of a child asked for names (nil: def's, else
// the defaults), each one the parent offers now (its mode's), never the
// task tool itself: a child starts no children.
func (s *Session) childTools(names []string, def *SubagentDef) (*tools.Registry, error) {
	if names == nil && def != nil && def.Tools != nil {
		names = def.Tools
	}
	if names == nil {
		names = DefaultSubagentTools
	}
	offered := s.offeredTools()
	reg := tools.NewRegistry()
	for _, n := range names {
		i := slices.IndexFunc(offered, func(t tools.Tool) bool { return t.Name() == n })
		if i < 0 || n == TaskToolName {
			var avail []string
			for _, t := range offered {
				if t.Name() != TaskToolName {
					avail = append(avail, t.Name())
				}
			}
			return nil, fmt.Errorf("task: tool %q is not available to a subagent here; available: %s", n, strings.Join(avail, ", "))
		}
		if _, dup := reg.Lookup(n); dup {
			continue
		}
		if err := reg.Add(offered[i]); err != nil {
			return nil, err
		}
	}
	return reg, nil
}

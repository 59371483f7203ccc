package permission

import (
	"context"
	"fmt"
)

// Risk orders how much harm an action can do.
type Risk int

const (
	Low Risk = iota
	Medium
	High
	Critical
)

func (r Risk) String() string {
	switch r {
	case Low:
		return "LOW"
	case Medium:
		return "MEDIUM"
	case High:
		return "HIGH"
	case Critical:
		return "CRITICAL"
	}
	return fmt.Sprintf("Risk(%d)", int(r))
}

// Action describes what a tool call is about to do, for the policy and for
// the person asked to approve it.
type Action struct {
	Tool    string // tool name, e.g. "edit_file"
	Summary string // one line, e.g. "edit src/main.go" or "run: go test ./..."
	// Scope is the key an "allow for this session" answer is remembered
	// under, e.g. "run_bash:git status" or "edit_file".
	Scope string
	Risk  Risk
	// ReadOnly marks an action that changes nothing (reads inside the
	// workspace); the policy runs those without asking.
	ReadOnly bool
	Path     string   // workspace-relative path the action touches, if any
	Command  string   // the shell command, for run_bash
	Diff     string   // compact unified diff, for edits
	Reasons  []string // why the risk is what it is (danger findings), for the prompt
	// WorkspaceEdit marks a change to a file's text inside the workspace
	// (write_file, edit_file): what Policy.SetAutoAllowWorkspaceEdits lets
	// through without asking.
	WorkspaceEdit bool
	// Sandboxed marks a command that runs inside the OS sandbox (writes
	// confined to the workspace, secrets hidden, network local): what
	// Policy.SetAutoAllowSandboxedCommands lets through without asking.
	Sandboxed bool
	// CallID is the id of the tool call the action belongs to (set by the
	// tool registry), so an approver can point at the call the user sees.
	CallID string
	// ParentCallID is set when a subagent asks: the id of the task call
	// that started it (set by the agent), so an approver can say whose
	// call it is.
	ParentCallID string
	// Edit is the proposed change of an edit action, hunk by hunk, for a
	// Reviewer; nil for other actions.
	Edit *EditProposal
}

// Decision is a person's answer to an approval request.
type Decision int

const (
	Deny Decision = iota
	AllowOnce
	AllowSession
)

func (d Decision) String() string {
	switch d {
	case AllowOnce:
		return "allow once"
	case AllowSession:
		return "allow for this session"
	}
	return "deny"
}

// Approver asks whoever approves actions (an editor popup, a terminal prompt,
// an auto-approver). It is only asked about actions the policy cannot decide
// alone. offerSession is false for HIGH risk: the answer AllowSession must
// then not be offered (and is treated as AllowOnce if returned).
type Approver interface {
	Approve(ctx context.Context, a Action, offerSession bool) (Decision, error)
}

package permission

import (
	"context"
	"strings"
	"sync"
)

// Verdict is the policy's decision on one action.
type Verdict struct {
	Allowed bool
	// Reason explains a refusal or denial to the model: "denied by the
	// user", "refused: CRITICAL risk: recursive delete of /", "approval
	// failed: …". Empty when allowed.
	Reason string
	// Review is what a Reviewer answered about the action's Edit: which
	// hunks may land, and its feedback. Nil when no reviewer was asked.
	// (A pointer keeps Verdict comparable.)
	Review *Reviewed
}

// ReasonDenied is the Verdict reason of a user's "no".
const ReasonDenied = "denied by the user"

// Policy decides whether an action may run, asking the Approver when it
// cannot decide alone:
//
//   - CRITICAL is refused without asking, whatever the approver (even --yes);
//   - a deny rule of a rules file refuses without asking; an allow rule
//     runs an action below HIGH without asking (SetRules);
//   - read-only actions below HIGH run without asking;
//   - with SetAutoAllowWorkspaceEdits(true), edits inside the workspace
//     below HIGH run without asking;
//   - with SetAutoAllowSandboxedCommands(true), commands that run inside
//     the OS sandbox (Action.Sandboxed) below HIGH run without asking;
//   - an action whose tool and scope were allowed for this session runs
//     without asking, unless it is HIGH;
//   - HIGH is asked every time and "allow for this session" is not offered
//     (an AllowSession answer counts as AllowOnce);
//   - anything else is asked with "allow for this session" offered, and
//     "Always allow" (Action.AlwaysRule) when rules are in use.
//
// Questions are serialized: parallel tool calls never show two prompts at
// once. A Policy is safe for concurrent use.
type Policy struct {
	mu       sync.Mutex // guards approver and granted
	approver Approver
	granted  map[string]bool // tool + "\x00" + scope
	// autoEdits lets workspace edits below HIGH through without asking.
	autoEdits bool
	// autoSandboxed lets sandboxed commands below HIGH through without
	// asking.
	autoSandboxed bool

	rules       *Rules      // persistent rules (policy_rules.go); nil: none
	onSaveError func(error) // told when an "Always allow" was not saved

	asking chan struct{} // holds a token while a question is open
	// queued, set only by tests, is told each time a Check starts waiting
	// for its turn to ask: the event a test waits on instead of sleeping.
	queued func()
}

// NewPolicy returns a policy asking approver.
func NewPolicy(approver Approver) *Policy {
	return &Policy{approver: approver, granted: map[string]bool{}, asking: make(chan struct{}, 1)}
}

// SetApprover replaces who is asked; questions already open finish with
// the old one.
func (p *Policy) SetApprover(a Approver) {
	p.mu.Lock()
	p.approver = a
	p.mu.Unlock()
}

// Forget drops every "allow for this session" grant (a new session).
func (p *Policy) Forget() {
	p.mu.Lock()
	p.granted = map[string]bool{}
	p.mu.Unlock()
}

// SetAutoAllowWorkspaceEdits turns on (or off) running edits inside the
// workspace (Action.WorkspaceEdit) below HIGH without asking. Commands and
// everything else still ask; HIGH is still asked and CRITICAL refused.
func (p *Policy) SetAutoAllowWorkspaceEdits(on bool) {
	p.mu.Lock()
	p.autoEdits = on
	p.mu.Unlock()
}

// SetAutoAllowSandboxedCommands turns on (or off) running commands that
// the OS sandbox contains (Action.Sandboxed) below HIGH without asking:
// the sandbox holds the workspace boundary. HIGH is still asked every
// time and CRITICAL refused. Only turn it on when the sandbox is active.
func (p *Policy) SetAutoAllowSandboxedCommands(on bool) {
	p.mu.Lock()
	p.autoSandboxed = on
	p.mu.Unlock()
}

func (p *Policy) autoAllowsSandboxed() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.autoSandboxed
}

func (p *Policy) autoAllowsEdits() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.autoEdits
}

func grantKey(a Action) string { return a.Tool + "\x00" + a.Scope }

func (p *Policy) isGranted(a Action) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.granted[grantKey(a)]
}

// Check decides on an action. The error is non-nil only when ctx ends
// while waiting for a turn to ask or for the answer.
func (p *Policy) Check(ctx context.Context, a Action) (Verdict, error) {
	if a.Risk >= Critical {
		why := strings.Join(a.Reasons, "; ")
		if why == "" {
			why = a.Summary
		}
		return Verdict{Reason: "refused: CRITICAL risk: " + why}, nil
	}
	if v, ok := p.byRule(a); ok {
		return v, nil
	}
	if a.ReadOnly && a.Risk < High {
		return Verdict{Allowed: true}, nil
	}
	if a.WorkspaceEdit && a.Risk < High && p.autoAllowsEdits() {
		return Verdict{Allowed: true}, nil
	}
	if a.Sandboxed && a.Risk < High && p.autoAllowsSandboxed() {
		return Verdict{Allowed: true}, nil
	}
	if a.Risk < High && p.isGranted(a) {
		return Verdict{Allowed: true}, nil
	}
	if p.queued != nil {
		p.queued()
	}
	select {
	case p.asking <- struct{}{}:
	case <-ctx.Done():
		return Verdict{}, ctx.Err()
	}
	defer func() { <-p.asking }()
	// A parallel call may have been granted this scope while we waited.
	if a.Risk < High && p.isGranted(a) {
		return Verdict{Allowed: true}, nil
	}
	p.mu.Lock()
	approver := p.approver
	p.mu.Unlock()
	if approver == nil {
		return Verdict{Reason: "approval failed: no approver configured"}, nil
	}
	offer := a.Risk < High
	a.AlwaysRule = p.alwaysRule(a, offer)
	if rv, ok := approver.(Reviewer); ok && a.Edit != nil && len(a.Edit.Hunks) > 0 {
		return p.review(ctx, rv, a, offer)
	}
	d, err := approver.Approve(ctx, a, offer)
	if err != nil {
		if ctx.Err() != nil {
			return Verdict{}, ctx.Err()
		}
		return Verdict{Reason: "approval failed: " + err.Error()}, nil
	}
	switch d {
	case AllowSession, AllowAlwaysWorkspace, AllowAlwaysUser:
		if offer {
			p.saveAlways(a, d)
			p.mu.Lock()
			p.granted[grantKey(a)] = true
			p.mu.Unlock()
		}
		return Verdict{Allowed: true}, nil
	case AllowOnce:
		return Verdict{Allowed: true}, nil
	}
	if r, ok := approver.(interface{ DenialReason() string }); ok && r.DenialReason() != "" {
		return Verdict{Reason: "denied: " + r.DenialReason()}, nil
	}
	return Verdict{Reason: ReasonDenied}, nil
}

package permission

import "context"

// AutoApprover says yes to everything it is asked (--yes): AllowSession
// when offered, else AllowOnce. The policy still refuses CRITICAL actions
// without asking it.
type AutoApprover struct{}

// Approve implements Approver.
func (AutoApprover) Approve(ctx context.Context, _ Action, offerSession bool) (Decision, error) {
	if err := ctx.Err(); err != nil {
		return Deny, err
	}
	if offerSession {
		return AllowSession, nil
	}
	return AllowOnce, nil
}

// DenyAll says no to everything it is asked, e.g. when no one can be asked
// (no terminal and no --yes). Reason, when set, replaces "denied by the
// user" in what the model reads, e.g. "no one to approve: run with --yes".
type DenyAll struct{ Reason string }

// Approve implements Approver.
func (DenyAll) Approve(context.Context, Action, bool) (Decision, error) { return Deny, nil }

// DenialReason is the reason the policy reports for this approver's "no".
func (d DenyAll) DenialReason() string { return d.Reason }

// Package permission owns the decision whether a tool call may run: risk
// levels, the shell danger detector, the policy (ask, allow once, allow for
// this session, deny, refuse), and the Approver interface that front ends
// implement to ask the user.
package permission

// Package permission owns the decision whether a tool call may run: risk
// levels, the shell danger detector, the policy (ask, allow once, allow for
// this session, always allow, deny, refuse), the persistent rules files
// (the user's and the workspace's, rulesfile*.go), and the Approver
// interface that front ends implement to ask the user.
package permission

// Package hooks owns the user's hooks: commands run at points of a
// session's life (SessionStart, UserPromptSubmit, PreToolUse,
// PostToolUse, PreCompact, Stop, SubagentStop, Notification, SessionEnd),
// configured in Claude Code's `hooks`
// format and speaking its JSON on stdin and stdout, so a team's existing
// hook scripts work unchanged (docs/protocol.md, "Hooks", names the
// differences). A hook can block a tool call or a prompt with a reason
// the model (or the user) reads, add context, or ask that a call be put to
// the user; it can never allow what the permission policy would ask
// about. Hooks run as children of the daemon, in the workspace root, with
// the environment every command gets (no API keys), inside the OS sandbox
// when there is one, bounded in time and output.
package hooks

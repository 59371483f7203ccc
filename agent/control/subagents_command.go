package control

import (
	"context"
	"fmt"
	"strings"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/permission"
)

// hashShown is how much of a file's hash /agents shows, and the least a
// trust command must give: enough to bind the decision to what was shown.
const hashShown = 12

const agentsUsage = "usage: /agents (list), /agents trust <name> <hash> [always], /agents deny <name>"

// slashAgents is /agents: the custom subagents with their trust, and the
// trust decisions about a workspace's, for the front ends without a
// question of their own (the chat, ACP); the LSP daemon has
// agent/subagents and agent/subagentTrust too.
func (s *Session) slashAgents(_ context.Context, args string, _ agent.Listener) (Result, error) {
	c := s.b.Subagents
	if c == nil {
		return answer("No custom subagents here."), nil
	}
	words := strings.Fields(args)
	if len(words) == 0 {
		return answer(describeSubagents(c.Reload())), nil
	}
	var name, decision, prefix string
	switch {
	case words[0] == "trust" && len(words) == 3:
		name, prefix, decision = words[1], words[2], SubagentTrustOnce
	case words[0] == "trust" && len(words) == 4 && words[3] == "always":
		name, prefix, decision = words[1], words[2], SubagentTrustAlways
	case words[0] == "deny" && len(words) == 2:
		name, decision = words[1], "deny"
	default:
		return Result{}, invalidf("%s", agentsUsage)
	}
	var hash string
	for _, f := range c.Reload() {
		if f.Name == name && f.Source == "workspace" {
			hash = f.Hash
		}
	}
	if decision != "deny" && (len(prefix) < hashShown || !strings.HasPrefix(hash, prefix)) {
		return Result{}, invalidf("subagent %q: the hash %q is not its content's (it changed, or the hash is cut short): /agents shows it again", name, prefix)
	}
	files, err := c.Trust(name, hash, decision)
	if err != nil {
		return Result{}, err
	}
	return answer(describeSubagents(files)), nil
}

// describeSubagents is /agents' answer: each file with its trust, and for
// one not trusted what trusting it would offer the model (its tools,
// model and instructions, shown as written) and the command that does.
func describeSubagents(files []SubagentFile) string {
	if len(files) == 0 {
		return fmt.Sprintf("No custom subagents (Markdown files in %s, in the workspace or your home).", strings.Join(SubagentDirs, " or "))
	}
	var b strings.Builder
	b.WriteString("Custom subagents (the task tool's agent):")
	for _, f := range files {
		fmt.Fprintf(&b, "\n- %s (%s, %s): %s\n  %s", permission.VisibleLine(f.Name, 0), f.Source, f.Trust,
			permission.VisibleLine(f.Description, 200), permission.VisibleLine(f.Path, 0))
		if f.Problem != "" {
			fmt.Fprintf(&b, "\n  not offered: %s", permission.VisibleLine(f.Problem, 200))
			continue
		}
		if f.Trust != SubagentTrustUntrusted {
			continue
		}
		tools := "read_file, glob, grep (the defaults)"
		if f.Tools != nil {
			tools = strings.Join(f.Tools, ", ")
		}
		fmt.Fprintf(&b, "\n  tools: %s", permission.VisibleLine(tools, 0))
		if f.Model != "" {
			fmt.Fprintf(&b, "; model: %s", permission.VisibleLine(f.Model, 0))
		}
		for _, line := range strings.Split(f.Prompt, "\n") {
			fmt.Fprintf(&b, "\n  | %s", permission.VisibleLine(line, 0))
		}
		fmt.Fprintf(&b, "\n  not offered until you trust it: /agents trust %s %s [always]", f.Name, f.Hash[:hashShown])
	}
	return b.String()
}

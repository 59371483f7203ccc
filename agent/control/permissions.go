package control

import (
	"context"
	"fmt"
	"strings"

	"go.uber.org/zap"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/permission"
	"github.com/agent-lsp/agent-lsp/tools"
)

// Persistent permission rules, for every front end: each session's policy
// follows the rules files of its workspace, and /permissions lists them,
// removes one, or trusts the workspace's file.

func init() {
	builtinCommands = append(builtinCommands, builtinCommand{
		Command: Command{Name: "/permissions",
			Description: "List the saved permission rules; \"remove ID\" deletes one; \"trust\" approves the workspace's rules file as it is now",
			Arguments:   []tools.PromptArgument{{Name: "action", Description: "remove ID | trust"}}},
		run: (*Session).slashPermissions,
	})
}

// applyRules makes gate follow the rules files of ws.
func (c *Controller) applyRules(gate *permission.Policy, ws *tools.Workspace) {
	if c.o.Rules == nil {
		return
	}
	gate.SetRules(c.Rules(ws), func(err error) {
		c.log.Warn("an \"Always allow\" rule was not saved; it holds for this session", zap.Error(err))
	})
}

// Rules are the permission rules that apply in ws (nil without rules
// files).
func (c *Controller) Rules(ws *tools.Workspace) *permission.Rules {
	if c.o.Rules == nil {
		return nil
	}
	root := ""
	if ws != nil && len(ws.Roots()) > 0 {
		root = ws.Roots()[0]
	}
	return c.o.Rules.For(root)
}

func (s *Session) slashPermissions(_ context.Context, args string, _ agent.Listener) (Result, error) {
	rules := s.c.Rules(s.b.Workspace)
	if rules == nil {
		return answer("No permission rules files in use."), nil
	}
	verb, rest, _ := strings.Cut(strings.TrimSpace(args), " ")
	switch verb {
	case "":
		return answer(DescribeRules(rules.List())), nil
	case "remove":
		r, err := rules.Remove(strings.TrimSpace(rest))
		if err != nil {
			return Result{}, invalidf("%v", err)
		}
		return answer(fmt.Sprintf("Removed %s rule %q from the %s's rules file.", r.Decision, r.String(), r.Source)), nil
	case "trust":
		if err := rules.Trust(strings.TrimSpace(rest)); err != nil {
			return Result{}, invalidf("%v", err)
		}
		return answer("The workspace's rules file is trusted as it is now: its allow rules apply (never to HIGH risk). An edit untrusts it."), nil
	}
	return Result{}, invalidf("/permissions: want no argument, \"remove ID\" or \"trust\"")
}

// DescribeRules is a listing as text, one rule a line, then each file's
// state.
func DescribeRules(l permission.RulesListing) string {
	var b strings.Builder
	if len(l.Rules) == 0 {
		b.WriteString("No permission rules.\n")
	}
	for _, r := range l.Rules {
		fmt.Fprintf(&b, "%s  %-5s  %s  (%s)\n", r.ID, r.Decision, permission.VisibleLine(r.String(), 0), r.Source)
	}
	for _, f := range l.Files {
		state := "absent"
		switch {
		case f.Exists && f.Source == permission.SourceWorkspace && !f.Trusted:
			state = "untrusted: its allow rules are ignored until you run /permissions trust"
		case f.Exists:
			state = "in use"
		}
		fmt.Fprintf(&b, "%s rules file %s: %s\n", f.Source, permission.VisibleLine(f.Path, 0), state)
		for _, e := range f.Errors {
			fmt.Fprintf(&b, "  error: %s\n", permission.VisibleLine(e, 0))
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// RuleFiles are the front end's rules files and the store of trusted
// workspace files (nil without them): what trusts a workspace's hooks.
func (c *Controller) RuleFiles() *permission.RuleFiles { return c.o.Rules }

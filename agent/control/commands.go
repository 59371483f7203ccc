package control

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/tools"
)

// PromptSource is where a session's MCP prompts come from (the front
// end's MCP manager): each prompt is the command /mcp__<server>__<name>.
type PromptSource interface {
	Prompts() []tools.PromptInfo
	GetPrompt(ctx context.Context, server, name string, args map[string]string) (string, error)
}

// Command is one slash command a session can run.
type Command struct {
	Name        string // with its slash: "/mode"
	Description string
	Arguments   []tools.PromptArgument // never nil
	Source      string                 // "builtin" or "mcp:<server>"
}

// builtinCommand is a command the controller runs itself. Its answer is
// the prompt's text; it makes no model call but /compact's summary.
type builtinCommand struct {
	Command
	run func(s *Session, ctx context.Context, args string, l agent.Listener) (Result, error)
}

var builtinCommands = []builtinCommand{
	{Command: Command{Name: "/compact", Description: "Compact the conversation now: old tool outputs elided, older messages summarised",
		Arguments: []tools.PromptArgument{{Name: "instructions", Description: "what the summary must keep (optional)"}}},
		run: (*Session).slashCompact},
	{Command: Command{Name: "/clear", Description: "Clear the conversation (the system prompt stays) and the plan"},
		run: (*Session).slashClear},
	{Command: Command{Name: "/mode", Description: "Show or set the mode: ask, plan, default, auto-edit",
		Arguments: []tools.PromptArgument{{Name: "mode", Description: "ask | plan | default | auto-edit"}}},
		run: (*Session).slashMode},
	{Command: Command{Name: "/model", Description: "Show the models, or switch to a preset or a model of the current provider",
		Arguments: []tools.PromptArgument{{Name: "model", Description: "a preset id or a model name"}}},
		run: (*Session).slashModel},
	{Command: Command{Name: "/rewind", Description: "List this session's checkpoints, or rewind to one: its files restored and the conversation from that prompt on dropped",
		Arguments: []tools.PromptArgument{{Name: "checkpoint", Description: "the number /rewind lists"}}},
		run: (*Session).slashRewind},
	{Command: Command{Name: "/skills", Description: "List the skills the model can load (the workspace's and yours)"},
		run: (*Session).slashSkills},
	{Command: Command{Name: "/hooks", Description: "List your hooks and the workspace's; /hooks trust runs the workspace's as they are now",
		Arguments: []tools.PromptArgument{{Name: "action", Description: "trust"}}},
		run: (*Session).slashHooks},
	worktreeCommand, // worktree_command.go
	{Command: Command{Name: "/budget", Description: "Show the spend and its caps, set them, and go on with a turn stopped at a cap",
		Arguments: []tools.PromptArgument{{Name: "caps", Description: "a dollar amount for this session, or sessionUsd= dayUsd= workspaceDayUsd= sessionTokens= warnAt="}}},
		run: (*Session).slashBudget},
	{Command: Command{Name: "/agents", Description: "List the custom subagents, or trust a workspace's: /agents trust <name> <hash> [always]",
		Arguments: []tools.PromptArgument{{Name: "decision", Description: "trust <name> <hash> [always] | deny <name>"}}},
		run: (*Session).slashAgents}, // subagents_command.go
}

// IsBuiltin reports whether name ("/mode") is a built-in command: it
// answers at once, without a model call (but /compact's summary).
func IsBuiltin(name string) bool {
	for _, c := range builtinCommands {
		if c.Name == name {
			return true
		}
	}
	return false
}

// Commands are the built-in commands, the custom commands and skills of
// the session's workspace and of the user, and every MCP prompt of the
// session.
func (s *Session) Commands() []Command { return Commands(s.b.Prompts, s.b.Workspace) }

// Commands are the built-in commands, the custom commands and skills of
// ws and of the user, and every prompt of p (nil: none), as a session
// bound to p in ws has them: a front end can list them before any session
// exists.
func Commands(p PromptSource, ws *tools.Workspace) []Command {
	out := []Command{}
	for _, c := range builtinCommands {
		cmd := c.Command
		cmd.Source = "builtin"
		if cmd.Arguments == nil {
			cmd.Arguments = []tools.PromptArgument{}
		}
		out = append(out, cmd)
	}
	out = append(out, fileAndSkillCommands(ws)...)
	var prompts []tools.PromptInfo
	if p != nil {
		prompts = p.Prompts()
	}
	for _, p := range prompts {
		desc := p.Description
		if desc == "" {
			desc = p.Title
		}
		args := p.Arguments
		if args == nil {
			args = []tools.PromptArgument{}
		}
		out = append(out, Command{Name: MCPCommandName(p), Description: desc, Arguments: args, Source: "mcp:" + p.Server})
	}
	return out
}

func (s *Session) mcpPrompts() []tools.PromptInfo {
	if s.b.Prompts == nil {
		return nil
	}
	return s.b.Prompts.Prompts()
}

// MCPCommandName is the slash command of an MCP prompt.
func MCPCommandName(p tools.PromptInfo) string { return "/mcp__" + p.Server + "__" + p.Name }

// commandPattern: a prompt is a command when its first word is a slash and
// a name ("/usr/bin is…", a path, is not).
var commandPattern = regexp.MustCompile(`^/([A-Za-z][A-Za-z0-9_.-]*)(?:\s+|$)`)

// ParseCommand splits "/name args" off a prompt; ok is false when the
// prompt is not a command.
func ParseCommand(prompt string) (name, args string, ok bool) {
	trimmed := strings.TrimSpace(prompt)
	m := commandPattern.FindStringSubmatchIndex(trimmed)
	if m == nil {
		return "", "", false
	}
	return "/" + trimmed[m[2]:m[3]], strings.TrimSpace(trimmed[m[1]:]), true
}

// runCommand runs a slash command. A built-in command answers with its
// message as the result's text; an MCP prompt is fetched and runs as the
// user's prompt.
func (s *Session) runCommand(ctx context.Context, name, args string, l agent.Listener) (Result, error) {
	for _, c := range builtinCommands {
		if c.Name == name {
			res, err := c.run(s, ctx, args, l)
			res.Command, res.Answered = name, !res.Continued
			return res, err
		}
	}
	if res, ok := s.runFileCommand(ctx, name, args, l); ok {
		return res, nil
	}
	for _, pi := range s.mcpPrompts() {
		if MCPCommandName(pi) != name {
			continue
		}
		text, err := s.fetchMCPPrompt(ctx, pi, args)
		if err != nil {
			return Result{}, err
		}
		return Result{Outcome: s.run(ctx, text, nil, l), Command: name}, nil
	}
	return Result{}, invalidf("unknown command %s (the command list names them)", name)
}

func (s *Session) fetchMCPPrompt(ctx context.Context, pi tools.PromptInfo, args string) (string, error) {
	values, err := promptArguments(pi, args)
	if err != nil {
		return "", invalidf("%s: %v", MCPCommandName(pi), err)
	}
	text, err := s.b.Prompts.GetPrompt(ctx, pi.Server, pi.Name, values)
	if err != nil {
		return "", fmt.Errorf("%s: %w", MCPCommandName(pi), err)
	}
	if strings.TrimSpace(text) == "" {
		return "", fmt.Errorf("%s: the prompt is empty", MCPCommandName(pi))
	}
	return text, nil
}

// promptArguments reads a command line's arguments for an MCP prompt:
// name=value words (values may be "quoted"), and bare words for the
// declared arguments in order. A prompt with one argument takes the whole
// line when it has no name=value word.
func promptArguments(pi tools.PromptInfo, line string) (map[string]string, error) {
	values := map[string]string{}
	if line == "" {
		return values, nil
	}
	words, err := splitWords(line)
	if err != nil {
		return nil, err
	}
	named := false
	for _, w := range words {
		if k, _, ok := strings.Cut(w, "="); ok && declared(pi, k) {
			named = true
		}
	}
	if len(pi.Arguments) == 1 && !named {
		values[pi.Arguments[0].Name] = line
		return values, nil
	}
	var positional []string
	for _, w := range words {
		if k, v, ok := strings.Cut(w, "="); ok && declared(pi, k) {
			values[k] = v
			continue
		}
		positional = append(positional, w)
	}
	for _, a := range pi.Arguments {
		if len(positional) == 0 {
			break
		}
		if _, set := values[a.Name]; !set {
			values[a.Name], positional = positional[0], positional[1:]
		}
	}
	if len(positional) > 0 {
		return nil, fmt.Errorf("too many arguments: %q", strings.Join(positional, " "))
	}
	return values, nil
}

func declared(pi tools.PromptInfo, name string) bool {
	for _, a := range pi.Arguments {
		if a.Name == name {
			return true
		}
	}
	return false
}

// splitWords splits at white space, keeping "double quoted" runs (with \"
// inside) in one word.
func splitWords(line string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord, quoted := false, false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quoted && c == '\\' && i+1 < len(line) && line[i+1] == '"':
			cur.WriteByte('"')
			i++
		case c == '"':
			quoted, inWord = !quoted, true
		case !quoted && (c == ' ' || c == '\t' || c == '\n'):
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if quoted {
		return nil, errors.New("unterminated quote")
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

package lsp

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"go.lsp.dev/jsonrpc2"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/mcp"
	"github.com/agent-lsp/agent-lsp/tools"
)

// commandInfo is one slash command, as agent/commands lists it.
type commandInfo struct {
	Name        string               `json:"name"` // with its slash: "/mode"
	Description string               `json:"description"`
	Arguments   []mcp.PromptArgument `json:"arguments"`
	Source      string               `json:"source"` // "builtin" or "mcp:<server>"
}

type commandsResult struct {
	Commands []commandInfo `json:"commands"`
}

// builtinCommand is a command the daemon runs itself. The list is open:
// a command that depends on something (a checkpoint to rewind to) says
// whether it is available.
type builtinCommand struct {
	info      commandInfo
	available func(s *server) bool // nil: always
	run       func(s *server, ctx context.Context, sess *session, args string, p promptParams) (string, error)
}

var builtinCommands []builtinCommand

func init() {
	builtinCommands = []builtinCommand{
		{info: commandInfo{Name: "/compact", Description: "Compact the conversation now: old tool outputs elided, older messages summarised"},
			run: (*server).slashCompact},
		{info: commandInfo{Name: "/clear", Description: "Clear the conversation (the system prompt stays) and the plan"},
			run: (*server).slashClear},
		{info: commandInfo{Name: "/mode", Description: "Show or set the mode: ask, plan, default, auto-edit",
			Arguments: []mcp.PromptArgument{{Name: "mode", Description: "ask | plan | default | auto-edit"}}},
			run: (*server).slashMode},
		{info: commandInfo{Name: "/model", Description: "Show the models, or switch to a preset or a model of the current provider",
			Arguments: []mcp.PromptArgument{{Name: "model", Description: "a preset id (agent/models) or a model name"}}},
			run: (*server).slashModel},
	}
}

// listCommands serves agent/commands: the built-in commands available now
// and every MCP prompt as /mcp__<server>__<prompt>.
func (s *server) listCommands(_ context.Context, r *request) (any, error) {
	if err := decodeParams(r.params, &struct{}{}); err != nil {
		return nil, err
	}
	res := commandsResult{Commands: []commandInfo{}}
	for _, c := range builtinCommands {
		if c.available == nil || c.available(s) {
			info := c.info
			info.Source = "builtin"
			if info.Arguments == nil {
				info.Arguments = []mcp.PromptArgument{}
			}
			res.Commands = append(res.Commands, info)
		}
	}
	for _, p := range s.mcpPrompts() {
		desc := p.Description
		if desc == "" {
			desc = p.Title
		}
		args := p.Arguments
		if args == nil {
			args = []mcp.PromptArgument{}
		}
		res.Commands = append(res.Commands, commandInfo{Name: mcpCommandName(p), Description: desc,
			Arguments: args, Source: "mcp:" + p.Server})
	}
	return res, nil
}

func mcpCommandName(p mcp.PromptInfo) string { return "/mcp__" + p.Server + "__" + p.Name }

// commandPattern: a prompt is a command when its first word is a slash and
// a name ("/usr/bin is…", a path, is not).
var commandPattern = regexp.MustCompile(`^/([A-Za-z][A-Za-z0-9_.-]*)(?:\s+|$)`)

// parseCommand splits "/name args" off a prompt.
func parseCommand(prompt string) (name, args string, ok bool) {
	trimmed := strings.TrimSpace(prompt)
	m := commandPattern.FindStringSubmatchIndex(trimmed)
	if m == nil {
		return "", "", false
	}
	return "/" + trimmed[m[2]:m[3]], strings.TrimSpace(trimmed[m[1]:]), true
}

// runCommand runs a slash command of a prompt. Built-in commands answer
// with their message as the result's text; an MCP prompt is fetched with
// prompts/get and runs as the user's prompt.
func (s *server) runCommand(ctx context.Context, sess *session, name, args string, p promptParams) (promptResult, error) {
	res := promptResult{SessionID: sess.id, StopReason: string(agent.StopEndTurn), Command: name}
	for _, c := range builtinCommands {
		if c.info.Name != name || (c.available != nil && !c.available(s)) {
			continue
		}
		text, err := c.run(s, ctx, sess, args, p)
		if err != nil {
			return promptResult{}, err
		}
		res.Text = text
		return res, nil
	}
	for _, pi := range s.mcpPrompts() {
		if mcpCommandName(pi) != name {
			continue
		}
		text, err := s.fetchMCPPrompt(ctx, pi, args)
		if err != nil {
			return promptResult{}, err
		}
		o := s.runPrompt(ctx, sess, text, p.WorkDoneToken)
		res = promptResult{SessionID: sess.id, StopReason: string(o.StopReason), Text: o.Text, Usage: o.Usage, Command: name}
		if o.StopReason == agent.StopError && o.Err != nil {
			res.Error = o.Err.Error()
		}
		return res, nil
	}
	return promptResult{}, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "invalid params: unknown command %s (agent/commands lists them)", name)
}

func (s *server) fetchMCPPrompt(ctx context.Context, pi mcp.PromptInfo, args string) (string, error) {
	mgr := s.mcp.manager()
	if mgr == nil {
		return "", jsonrpc2.Errorf(codeRequestFailed, "no MCP server is running")
	}
	values, err := promptArguments(pi, args)
	if err != nil {
		return "", jsonrpc2.Errorf(jsonrpc2.InvalidParams, "invalid params: %s: %v", mcpCommandName(pi), err)
	}
	text, err := mgr.GetPrompt(ctx, pi.Server, pi.Name, values)
	if err != nil {
		return "", jsonrpc2.Errorf(codeRequestFailed, "%s: %v", mcpCommandName(pi), err)
	}
	if strings.TrimSpace(text) == "" {
		return "", jsonrpc2.Errorf(codeRequestFailed, "%s: the prompt is empty", mcpCommandName(pi))
	}
	return text, nil
}

// promptArguments reads a command line's arguments for an MCP prompt:
// name=value words (values may be "quoted"), and bare words for the
// declared arguments in order. A prompt with one argument takes the whole
// line when it has no name=value word.
func promptArguments(pi mcp.PromptInfo, line string) (map[string]string, error) {
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

func declared(pi mcp.PromptInfo, name string) bool {
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

func (s *server) slashMode(_ context.Context, sess *session, args string, _ promptParams) (string, error) {
	if args == "" {
		return describeModes(sess.agent.Mode()), nil
	}
	m, err := s.switchMode(sess, args)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("Mode: %s (%s).", m, m.Description()), nil
}

func (s *server) slashModel(_ context.Context, sess *session, args string, _ promptParams) (string, error) {
	if args == "" {
		return s.describeModels(sess), nil
	}
	p := setModelParams{SessionID: sess.id, Model: args}
	if _, ok := s.control.preset(args); ok {
		p = setModelParams{SessionID: sess.id, Preset: args}
	}
	cur, err := s.switchModel(sess, p)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("Model: %s (%s, %s), from the next request on.", cur.Model, cur.Provider, cur.BaseURL), nil
}

func (s *server) slashClear(ctx context.Context, sess *session, _ string, _ promptParams) (string, error) {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	untrack := sess.track(cancel)
	defer untrack()
	if err := sess.agent.Clear(ctx); err != nil {
		return "", errRequestCancelled
	}
	sess.touchUpdated(time.Now())
	s.sendControlUpdate(sess, "plan", &planUpdate{Items: []tools.TodoItem{}})
	return "Cleared the conversation.", nil
}

func (s *server) slashCompact(ctx context.Context, sess *session, _ string, p promptParams) (string, error) {
	if err := s.sessionModelErr(sess); err != nil { // the summary is a model call
		return "", jsonrpc2.Errorf(codeRequestFailed, "cannot compact: %v", err)
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	untrack := sess.track(cancel)
	defer untrack()
	prog := s.startProgress(ctx, p.WorkDoneToken, "agent-lsp", cancel)
	prog.report("Compacting")
	l := newUpdateListener(s, sess, prog)
	c, err := sess.agent.Compact(ctx, l)
	l.close()
	if c.Elided > 0 || c.Summarised > 0 {
		sess.touchUpdated(time.Now())
	}
	switch {
	case err != nil && ctx.Err() != nil:
		prog.end("Cancelled")
		return "", errRequestCancelled
	case err != nil:
		prog.end("Failed: " + err.Error())
		return "", jsonrpc2.Errorf(codeRequestFailed, "compact: %v", err)
	}
	prog.end(compactedMessage(c))
	if c.Elided == 0 && c.Summarised == 0 {
		return fmt.Sprintf("Nothing to compact (about %d tokens, all recent).", c.BeforeTokens), nil
	}
	return fmt.Sprintf("Compacted: about %d → %d tokens (%d tool outputs elided, %d messages summarised).",
		c.BeforeTokens, c.AfterTokens, c.Elided, c.Summarised), nil
}

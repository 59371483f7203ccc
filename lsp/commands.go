package lsp

import (
	"context"
	"fmt"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/agent/control"
	"github.com/agent-lsp/agent-lsp/permission"
)

// maxShownAnswer is how much of an agent.ask answer window/showMessage
// shows; the whole answer goes to window/logMessage.
const maxShownAnswer = 200

// askArgs is the argument of the agent.ask command.
type askArgs struct {
	Prompt string          `json:"prompt"`
	URI    string          `json:"uri,omitempty"`
	Range  *protocol.Range `json:"range,omitempty"`
}

// codeAction offers fixed prompts on a selection, for editors without a
// plugin (an "ask anything" action would need an input box LSP lacks).
func (s *server) codeAction(_ context.Context, p protocol.CodeActionParams) ([]protocol.CodeAction, error) {
	ask := func(title, kind, prompt string) protocol.CodeAction {
		return protocol.CodeAction{
			Title: title,
			Kind:  protocol.CodeActionKind(kind),
			Command: &protocol.Command{Title: title, Command: CommandAsk, Arguments: []any{
				askArgs{Prompt: prompt, URI: string(p.TextDocument.URI), Range: &p.Range}}},
		}
	}
	fix := "Fix the problems in the selected code."
	if len(p.Context.Diagnostics) > 0 {
		var msgs []string
		for _, d := range p.Context.Diagnostics {
			msgs = append(msgs, fmt.Sprintf("line %d: %s", d.Range.Start.Line+1, d.Message))
		}
		fix = "Fix these diagnostics in the selected code:\n" + strings.Join(msgs, "\n")
	}
	actions := []protocol.CodeAction{
		ask("Agent: explain this", "", "Explain the selected code."),
		ask("Agent: fix diagnostics here", string(protocol.QuickFix), fix),
		ask("Agent: add tests for this", "", "Add tests for the selected code."),
	}
	if len(p.Context.Only) == 0 {
		return actions, nil
	}
	// A kind filter: only actions with a matching kind (prefix) pass.
	out := []protocol.CodeAction{}
	for _, a := range actions {
		for _, k := range p.Context.Only {
			if a.Kind != "" && (a.Kind == k || strings.HasPrefix(string(a.Kind), string(k)+".")) {
				out = append(out, a)
				break
			}
		}
	}
	return out, nil
}

// executeCommand runs agent.ask (answering when the prompt is over),
// agent.revert and agent.cancel (its params: protocol_fixes.go). Only
// agent.revert has a result, what it restored; the others answer null.
func (s *server) executeCommand(ctx context.Context, p executeCommandParams) (*rewindResult, error) {
	switch p.Command {
	case CommandAsk:
		_, err := s.ask(ctx, p)
		return nil, err
	case CommandRevert:
		res, err := s.revert(ctx, p)
		if err != nil {
			return nil, err
		}
		return &res, nil
	case CommandCancel:
		var c cancelParams
		if len(p.Arguments) > 0 {
			if err := decodeParams(p.Arguments[0], &c); err != nil {
				return nil, err
			}
		}
		if c.SessionID == "" {
			s.sessions.cancelAll()
			return nil, nil
		}
		sess, ok := s.sessions.get(c.SessionID)
		if !ok {
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "invalid params: unknown session %q", c.SessionID)
		}
		sess.ctl.Cancel(errCancelledByClient)
		return nil, nil
	}
	return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "invalid params: unknown command %q", p.Command)
}

// ask runs agent.ask in the default session and shows the answer.
func (s *server) ask(ctx context.Context, p executeCommandParams) (noResult, error) {
	var a askArgs
	if len(p.Arguments) > 0 {
		if err := decodeParams(p.Arguments[0], &a); err != nil {
			return noResult{}, err
		}
	}
	if strings.TrimSpace(a.Prompt) == "" {
		return noResult{}, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "invalid params: agent.ask needs {prompt, uri?, range?}")
	}
	in := control.PromptInput{Text: a.Prompt, Verbatim: true}
	if a.URI != "" {
		extra, err := s.contextText(ctx, &promptContext{URI: a.URI, Range: a.Range})
		if err != nil {
			return noResult{}, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "invalid params: %v", err)
		}
		in.Context = extra
	}
	sess, err := s.sessions.defaultSession()
	if err != nil {
		return noResult{}, err
	}
	res, err := s.runPrompt(ctx, sess, in, p.WorkDoneToken, "")
	if err != nil {
		return noResult{}, controlError(err, sess.id)
	}
	o := res.Outcome
	typ, answer := protocol.MessageTypeInfo, o.Text
	switch o.StopReason {
	case agent.StopEndTurn:
	case agent.StopCancelled:
		typ, answer = protocol.MessageTypeWarning, "agent-lsp: cancelled"
	case agent.StopError:
		typ, answer = protocol.MessageTypeError, "agent-lsp: "+endMessage(o)
	default:
		answer = fmt.Sprintf("%s\n(stopped: %s)", o.Text, o.StopReason)
		if o.Notice != "" {
			typ, answer = protocol.MessageTypeWarning, o.Text+"\n("+o.Notice+")"
		}
	}
	if answer == "" {
		answer = "(no answer)"
	}
	// The answer is the model's: shown, its hidden characters are written
	// visibly (permission.VisibleOutput), never obeyed or hidden.
	answer = permission.VisibleOutput(answer)
	s.notify("window/logMessage", protocol.LogMessageParams{Type: typ, Message: answer})
	s.notify("window/showMessage", protocol.ShowMessageParams{Type: typ, Message: shorten(answer, maxShownAnswer)})
	if o.StopReason == agent.StopCancelled {
		return noResult{}, errRequestCancelled
	}
	return noResult{}, nil
}

// shorten cuts s to about n runes at a word boundary, marking the cut.
func shorten(s string, n int) string {
	r := []rune(strings.TrimSpace(s))
	if len(r) <= n {
		return string(r)
	}
	cut := string(r[:n])
	if i := strings.LastIndexAny(cut, " \n\t"); i > n/2 {
		cut = cut[:i]
	}
	return strings.TrimSpace(cut) + "… (full answer in the output log)"
}

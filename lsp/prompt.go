package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/agent/control"
	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/tools"
)

// maxSelection bounds the selected text a prompt carries.
const maxSelection = 32 << 10

type promptParams struct {
	SessionID     string          `json:"sessionId"`
	Prompt        string          `json:"prompt"`
	Context       *promptContext  `json:"context"`
	WorkDoneToken json.RawMessage `json:"workDoneToken"`
	// Delivery is "queue" or "steer" (control.Delivery); absent, a prompt
	// of a busy session waits unlisted.
	Delivery string `json:"delivery,omitempty"`
}

// promptContext points at what the user is looking at: a document and,
// optionally, a selection in it; and files to attach (control attaches them).
type promptContext struct {
	URI   string          `json:"uri"`
	Range *protocol.Range `json:"range"`
	Files []string        `json:"files"`
}

// promptResult is agent/prompt's reply. Its text, the whole answer, is
// written to the editor in pieces (pieces), so the fields before and
// after it are kept apart; they marshal in this order either way.
type promptResult struct {
	promptResultHead
	Text string `json:"text"`
	promptResultTail
}

type promptResultHead struct {
	SessionID  string `json:"sessionId"`
	StopReason string `json:"stopReason"`
}

type promptResultTail struct {
	Usage provider.Usage `json:"usage"`
	Error string         `json:"error,omitempty"`
	// Notice is the line to show when the prompt ended at a limit
	// (max_rounds, answer_cut, tool_call_limit).
	Notice string `json:"notice,omitempty"`
	// Mentions say what became of each @mention and context file.
	Mentions []agent.MentionReport `json:"mentions,omitempty"`
	// Command is the slash command the prompt ran (control runs it).
	Command string `json:"command,omitempty"`
}

// pieces implements piecewiseResult: the answer is escaped a chunk at a
// time between the other fields, never marshalled whole.
func (r promptResult) pieces() iter.Seq[[]byte] {
	head, herr := json.Marshal(r.promptResultHead)
	tail, terr := json.Marshal(r.promptResultTail)
	return func(yield func([]byte) bool) {
		if err := errors.Join(herr, terr); err != nil { // plain fields always marshal
			panic(err)
		}
		if !yield(withoutBrace(head, true)) || !yield([]byte(`,"text":`)) || !jsonStringPieces(r.Text, yield) {
			return
		}
		if !yield([]byte(",")) {
			return
		}
		yield(withoutBrace(tail, false))
	}
}

// prompt serves agent/prompt on its own goroutine; it answers when the
// prompt is over, cancelled included (stopReason "cancelled").
func (s *server) prompt(ctx context.Context, p promptParams) (promptResult, error) {
	if strings.TrimSpace(p.Prompt) == "" {
		return promptResult{}, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "invalid params: prompt is empty")
	}
	delivery, err := control.ParseDelivery(p.Delivery)
	if err != nil {
		return promptResult{}, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "invalid params: %v", err)
	}
	var sess *session
	if p.SessionID != "" {
		sess, err = s.sessions.lookup(p.SessionID)
	} else {
		sess, err = s.sessions.create("")
	}
	if err != nil {
		return promptResult{}, err
	}
	in := control.PromptInput{Text: p.Prompt, Delivery: delivery}
	name, _, command := control.ParseCommand(p.Prompt)
	if !command {
		if p.Context != nil {
			in.Files = make([]string, len(p.Context.Files))
			for i, uri := range p.Context.Files {
				path, err := uriToPath(uri)
				if err != nil {
					path = uri // not a file URI: reported as refused by the sandbox
				}
				in.Files[i] = path
			}
		}
		if p.Context != nil && p.Context.URI != "" {
			extra, err := s.contextText(ctx, p.Context)
			if err != nil {
				return promptResult{}, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "invalid params: context: %v", err)
			}
			in.Context = extra
		}
	}
	res, err := s.runPrompt(ctx, sess, in, p.WorkDoneToken, name)
	if err != nil {
		return promptResult{}, controlError(err, sess.id)
	}
	o := res.Outcome
	out := promptResult{promptResultHead: promptResultHead{SessionID: sess.id, StopReason: string(o.StopReason)}, Text: o.Text,
		promptResultTail: promptResultTail{Usage: o.Usage, Mentions: res.Mentions, Command: res.Command, Notice: o.Notice}}
	if o.StopReason == agent.StopError && o.Err != nil {
		out.Error = o.Err.Error()
	}
	return out, nil
}

// runPrompt runs one prompt of a session (command names its slash command,
// if any) with updates and progress. It can be cancelled by ctx, by
// agent/cancel for the session, and by the progress's cancel button. A
// built-in command answers at once, without progress, but /compact, whose
// summary is a model call; an unknown command is refused without one.
func (s *server) runPrompt(ctx context.Context, sess *session, in control.PromptInput, token json.RawMessage, command string) (control.Result, error) {
	ctx, cancel := context.WithCancelCause(withSession(ctx, sess.id))
	defer cancel(nil)
	compact := command == "/compact"
	var prog *progress
	if command == "" || (compact && sess.ctl.ModelErr() == nil) || isPromptCommand(sess, command) {
		prog = s.startProgress(ctx, token, "agent-lsp", cancel)
	}
	if compact {
		prog.report("Compacting")
	}
	l := newUpdateListener(s, sess, prog)
	res, err := sess.ctl.Prompt(withProgress(ctx, prog), in, l)
	l.close()
	s.refreshCodeLenses() // its edits (or a /rewind) changed what the revert lenses cover
	switch {
	case errors.Is(err, control.ErrCancelled):
		prog.end("Cancelled")
	case err != nil && errors.Unwrap(err) != nil:
		prog.end("Failed: " + errors.Unwrap(err).Error())
	case err != nil:
		prog.end("Failed: " + err.Error())
	case res.Compaction != nil:
		prog.end(compactedMessage(*res.Compaction))
	default:
		prog.end(endMessage(res.Outcome))
	}
	return res, err
}

// isPromptCommand reports whether command is one of the session's MCP
// prompts: it runs as a prompt, with progress.
func isPromptCommand(sess *session, command string) bool {
	for _, c := range sess.ctl.Commands() {
		if c.Name == command {
			return !control.IsBuiltin(command)
		}
	}
	return false
}

// endMessage is the last progress message.
func endMessage(o agent.Outcome) string {
	switch o.StopReason {
	case agent.StopEndTurn:
		return "Done"
	case agent.StopCancelled:
		return "Cancelled"
	case agent.StopSteered:
		return "Delivered to the running prompt"
	case agent.StopError:
		if o.Err != nil {
			return "Failed: " + o.Err.Error()
		}
		return "Failed"
	}
	if o.Notice != "" {
		return strings.ToUpper(o.Notice[:1]) + o.Notice[1:]
	}
	return "Stopped: " + string(o.StopReason)
}

// contextText is what a prompt's context adds: the selection's text (from
// the editor's buffer when open) or the file's name.
func (s *server) contextText(ctx context.Context, c *promptContext) (string, error) {
	path, err := uriToPath(c.URI)
	if err != nil {
		return "", err
	}
	docs := s.documents()
	if docs == nil {
		return "", errNotInitialized
	}
	rel := docs.ws.Rel(path)
	if c.Range == nil {
		return fmt.Sprintf("\n\n(The user is looking at %s.)", rel), nil
	}
	doc, err := docs.Read(ctx, path)
	if err != nil {
		return "", err
	}
	if !doc.Exists {
		return "", errors.New(rel + " does not exist")
	}
	starts := lineStarts(doc.Text)
	a, b := offsetOf(doc.Text, starts, c.Range.Start), offsetOf(doc.Text, starts, c.Range.End)
	if b < a {
		a, b = b, a
	}
	sel := tools.Truncate(doc.Text[a:b], maxSelection)
	return fmt.Sprintf("\n\nSelected text in %s (lines %d-%d):\n```\n%s\n```",
		rel, c.Range.Start.Line+1, c.Range.End.Line+1, strings.TrimSuffix(sel, "\n")), nil
}

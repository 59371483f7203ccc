package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/agent-lsp/agent-lsp/agent"
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
}

// promptContext points at what the user is looking at: a document and,
// optionally, a selection in it; and files to attach (mentions.go).
type promptContext struct {
	URI   string          `json:"uri"`
	Range *protocol.Range `json:"range"`
	Files []string        `json:"files"`
}

type promptResult struct {
	SessionID  string         `json:"sessionId"`
	StopReason string         `json:"stopReason"`
	Text       string         `json:"text"`
	Usage      provider.Usage `json:"usage"`
	Error      string         `json:"error,omitempty"`
	// Mentions say what became of each @mention and context file.
	Mentions []agent.MentionReport `json:"mentions,omitempty"`
	// Command is the slash command the prompt ran (slash.go).
	Command string `json:"command,omitempty"`
}

// prompt serves agent/prompt on its own goroutine; it answers when the
// prompt is over, cancelled included (stopReason "cancelled").
func (s *server) prompt(ctx context.Context, r *request) (any, error) {
	var p promptParams
	if err := decodeParams(r.params, &p); err != nil {
		return nil, err
	}
	if strings.TrimSpace(p.Prompt) == "" {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "invalid params: prompt is empty")
	}
	var sess *session
	var err error
	if p.SessionID != "" {
		sess, err = s.sessions.lookup(p.SessionID)
	} else {
		sess, err = s.sessions.create("")
	}
	if err != nil {
		return nil, err
	}
	if name, args, ok := parseCommand(p.Prompt); ok {
		return s.runCommand(ctx, sess, name, args, p)
	}
	text := p.Prompt
	var files []string
	if p.Context != nil {
		files = p.Context.Files
	}
	if p.Context != nil && p.Context.URI != "" {
		extra, err := s.contextText(ctx, p.Context)
		if err != nil {
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "invalid params: context: %v", err)
		}
		text += extra
	}
	text, mentions := s.attachMentions(ctx, sess, text, files)
	o := s.runPrompt(ctx, sess, text, p.WorkDoneToken)
	res := promptResult{SessionID: sess.id, StopReason: string(o.StopReason), Text: o.Text, Usage: o.Usage, Mentions: mentions}
	if o.StopReason == agent.StopError && o.Err != nil {
		res.Error = o.Err.Error()
	}
	return res, nil
}

// runPrompt runs one prompt of a session with updates and progress. It
// can be cancelled by ctx, by agent/cancel for the session, and by the
// progress's cancel button.
func (s *server) runPrompt(ctx context.Context, sess *session, text string, token json.RawMessage) agent.Outcome {
	ctx, cancel := context.WithCancelCause(withSession(ctx, sess.id))
	defer cancel(nil)
	untrack := sess.track(cancel)
	defer untrack()
	sess.touch(text, time.Now())

	prog := s.startProgress(ctx, token, "agent-lsp", cancel)
	l := newUpdateListener(s, sess, prog)
	modelErr := s.sessionModelErr(sess)

	var o agent.Outcome
	if modelErr != nil {
		o = agent.Outcome{StopReason: agent.StopError, Err: modelErr}
		l.OnEvent(agent.Event{Kind: agent.EventError, Err: modelErr})
	} else {
		o = sess.agent.Prompt(withProgress(ctx, prog), text, controlListener{Listener: l, s: s, sess: sess})
	}
	l.close()
	prog.end(endMessage(o))
	sess.touch(text, time.Now())
	return o
}

// endMessage is the last progress message.
func endMessage(o agent.Outcome) string {
	switch o.StopReason {
	case agent.StopEndTurn:
		return "Done"
	case agent.StopCancelled:
		return "Cancelled"
	case agent.StopError:
		if o.Err != nil {
			return "Failed: " + o.Err.Error()
		}
		return "Failed"
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

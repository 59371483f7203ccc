package control

import (
	"context"
	"fmt"
	"strings"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/tools"
)

// maxResource bounds the text of one client-supplied resource.
const maxResource = 256 << 10

// PromptInput is one prompt of the user with what the front end adds.
type PromptInput struct {
	Text      string
	Context   string     // text the front end adds (a selection, "the user is looking at ...")
	Files     []string   // paths to attach like @mentions (absolute or workspace-relative)
	Resources []Resource // client-supplied contents (ACP embedded resource): attached like a mention
	// Verbatim runs Text+Context as it is: no slash command, no @mention
	// (a fixed prompt of the front end's, like a code action's).
	Verbatim bool
	// Images go with the text to a model that takes them (checked before
	// anything is sent: provider.TakesImages).
	Images []provider.Image
	// Delivery says what becomes of the prompt while another one runs
	// (queue.go); the default waits unlisted.
	Delivery Delivery
}

// Resource is a file's contents the client sent with the prompt.
type Resource struct{ Path, Text string }

// Result is what became of a prompt.
type Result struct {
	Outcome agent.Outcome // StopReason, Text, Usage, Err
	Command string        // the slash command run, if any
	// Answered is set when the session answered a built-in command
	// itself: Outcome.Text is its message for the front end to show, and
	// no model turn streamed (/compact's summary is a model call, but not
	// a turn of the conversation).
	Answered bool
	// Continued: /budget went on with the turn a spend cap stopped;
	// Outcome is that turn's (its events streamed).
	Continued  bool
	Mentions   []agent.MentionReport
	Compaction *agent.Compaction // what /compact did
}

// Prompt runs one prompt of the session: a slash command, or the text with
// its context and mentions attached (a mention update is sent for each),
// with the session's events going to l (a plan event becomes an
// UpdatePlan instead). While another prompt runs it waits for its turn,
// as in.Delivery says: unlisted, in the queue, or as a steer message for
// the running prompt (queue.go). It can be cancelled by ctx and by Cancel
// (a queued prompt only by ctx, RemoveQueued and DropQueue). The error
// is for a command or input that cannot run (ErrInvalid, ErrCancelled, or a
// failure); a prompt that ran reports its own failure in Outcome.
func (s *Session) Prompt(ctx context.Context, in PromptInput, l agent.Listener) (Result, error) {
	if strings.TrimSpace(in.Text) == "" {
		return Result{}, invalidf("prompt is empty")
	}
	if err := s.checkImages(in); err != nil {
		return Result{}, err
	}
	if in.Delivery != DeliverWait {
		var release func()
		var left *Result
		if ctx, in, release, left = s.takeTurn(ctx, in); left != nil {
			return *left, nil // removed from the queue, or delivered into the running prompt
		}
		defer release()
	}
	if in.Verbatim {
		return Result{Outcome: s.run(ctx, in.Text+in.Context, in.Images, l)}, nil
	}
	if name, args, ok := ParseCommand(in.Text); ok {
		return s.runCommand(ctx, name, args, l)
	}
	text, mentions := s.attach(ctx, in.Text+in.Context, in.Files, in.Resources)
	return Result{Outcome: s.run(ctx, text, promptImages(in.Images, mentions), l), Mentions: mentions}, nil
}

// attach attaches the files the text mentions (@path, @path#L3-5), files,
// and resources, read through the binding's documents inside the
// workspace sandbox (agent.AttachMentions), and sends a mention update for
// each: what was attached and what was not, and why.
func (s *Session) attach(ctx context.Context, text string, files []string, res []Resource) (string, []agent.MentionReport) {
	docs := s.b.Docs
	if docs == nil {
		docs = &tools.DiskDocuments{Workspace: s.b.Workspace}
	}
	// Attachments get half the budget together, cut to fit like a
	// read_file result. The budget follows the window, which a server
	// being asked may still be telling: wait for it (a local server
	// answers at once, the discovery is bounded) rather than send a file
	// larger than the window.
	maxTokens := 0
	if len(files) > 0 || agent.HasMentions(text) {
		s.WaitContextWindow(ctx)
		maxTokens = s.agent.Budget() / 2
	}
	text, reports := agent.AttachMentionsWithin(ctx, s.b.Workspace, docs, text, files, maxTokens)
	var b strings.Builder
	b.WriteString(text)
	for _, r := range res {
		rep := agent.MentionReport{Path: r.Path, Status: agent.MentionAttached}
		if s.b.Workspace != nil {
			rep.Path = s.b.Workspace.Rel(r.Path)
		}
		fmt.Fprintf(&b, "\n\nAttached %s:\n```\n%s\n```", rep.Path, strings.TrimSuffix(tools.Truncate(r.Text, maxResource), "\n"))
		reports = append(reports, rep)
	}
	s.refuseImages(reports)
	for _, rep := range reports {
		s.notify(Update{Kind: UpdateMention, Mention: rep})
	}
	return b.String(), reports
}

// run runs one prompt's text, tracked for Cancel; the first prompt names
// an untitled session.
func (s *Session) run(ctx context.Context, text string, images []provider.Image, l agent.Listener) agent.Outcome {
	ctx, done := s.tracked(ctx)
	defer done()
	if !holdsTurn(ctx, &s.queue) {
		if e := s.queue.enter(text, "", DeliverWait); e != nil && !s.queue.wait(ctx, e) {
			return s.agent.Prompt(ctx, text, l) // cancelled while it waited: ends at once, as cancelled
		}
		defer func() { s.queue.release(ctx.Err() != nil) }()
	}
	s.touch(text)
	defer s.touch(text)
	if err := s.ModelErr(); err != nil {
		l.OnEvent(agent.Event{Kind: agent.EventError, Err: err})
		return agent.Outcome{StopReason: agent.StopError, Err: err}
	}
	s.stopIdle(false)
	defer s.armIdle() // hooks_idle.go
	text, err := s.promptHooks(ctx, text)
	if err != nil {
		l.OnEvent(agent.Event{Kind: agent.EventError, Err: err})
		return agent.Outcome{StopReason: agent.StopError, Err: err}
	}
	return s.agent.PromptImages(ctx, text, images, planListener{Listener: l, s: s})
}

// planListener turns a prompt's plan events into plan updates. The plan
// event comes from a tool's Run, after its tool call event and before its
// result: a prompt's events are delivered one at a time, so the order holds.
type planListener struct {
	agent.Listener
	s *Session
}

func (l planListener) OnEvent(e agent.Event) {
	if e.Kind == agent.EventCompacted && e.ParentToolCallID == "" {
		l.s.restartHooks(sourceCompact) // the next prompt runs SessionStart "compact" (hooks_lifecycle.go)
	}
	if e.Kind == agent.EventPlan {
		items := e.Plan
		if items == nil {
			items = []tools.TodoItem{}
		}
		l.s.notify(Update{Kind: UpdatePlan, Plan: items})
		return
	}
	l.Listener.OnEvent(e)
}

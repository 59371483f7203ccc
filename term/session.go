package term

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/agent/control"
)

// session is the terminal's side of one controller session: it opens the
// session, runs lines through it as the editors do (control.Session.Prompt:
// a prompt, a built-in command, an MCP prompt), and shows the controller's
// answers and updates. Only /help, /session and /sessions, which list what
// the terminal has, are the terminal's own.
type session struct {
	ctl  *control.Controller
	sess *control.Session
	p    *printer // where updates and command answers are shown
	root string   // the workspace's root, as stored with its sessions

	mu sync.Mutex
	// opening is set while the session is opened: a model update then is
	// the session's stored model coming back.
	opening bool
	// fellBack is set when the stored model could not be restored (the
	// update said why).
	fellBack bool
	// planShown is set while a plan with items is on the screen.
	planShown bool
}

// open starts the session: a new one, or the stored one o.Resume or
// o.Continue names, with the model it was switched to.
func (c *session) open(o Options, b control.Binding) error {
	b.Notify = c.notify
	c.root = workspaceRoot(b)
	id, err := c.toOpen(o, c.root)
	if err != nil {
		return err
	}
	if id == "" {
		s, err := c.ctl.NewSession(b, "")
		if err != nil {
			return fmt.Errorf("new session: %w", err)
		}
		c.sess = s
		return nil
	}
	c.setOpening(true)
	s, err := c.ctl.Open(id, b)
	c.setOpening(false)
	if err != nil {
		return fmt.Errorf("resume session %s: %w", id, err)
	}
	c.sess = s
	c.mu.Lock()
	fellBack := c.fellBack
	c.mu.Unlock()
	if _, stored := s.Agent().StoredModel(); stored && !fellBack {
		m := s.Model()
		c.p.line(fmt.Sprintf("model: %s, as the session left it", modelText(m)))
	}
	if m := s.Mode(); m != agent.ModeDefault && m != o.Mode {
		// A resumed session keeps its mode: say so, or "ask" refusing
		// edits would look like a bug.
		c.p.line(fmt.Sprintf("mode: %s (%s), as the session left it; /mode default changes it", m, m.Description()))
	}
	return nil
}

// toOpen is the stored session --resume or --continue names, as the
// controller lists them; "" for a new one. --continue takes the latest
// session of this workspace: a session of another project would run its
// tools here. Sessions stored before workspaces were recorded belong to
// none (--resume still opens them by id).
func (c *session) toOpen(o Options, root string) (string, error) {
	if o.Resume != "" {
		if !c.ctl.Known(o.Resume) {
			return "", fmt.Errorf("--resume: no stored session %q (agent-lsp chat --list lists them)", o.Resume)
		}
		return o.Resume, nil
	}
	if !o.Continue {
		return "", nil
	}
	for _, s := range c.ctl.List() {
		if s.Root == root {
			return s.ID, nil
		}
	}
	return "", fmt.Errorf("--continue: no stored session of %s (agent-lsp chat --list lists them)", root)
}

// workspaceRoot is the root the binding's sessions are stored with.
func workspaceRoot(b control.Binding) string {
	if b.Workspace == nil {
		return ""
	}
	return b.Workspace.Roots()[0]
}

func (c *session) setOpening(v bool) {
	c.mu.Lock()
	c.opening = v
	c.mu.Unlock()
}

// modelText names a model as the terminal shows it: its preset, when one
// is in force, then the model, dialect and endpoint.
func modelText(m control.ModelInfo) string {
	if m.Preset != "" && m.Preset != m.Model {
		return fmt.Sprintf("%s (preset %s: %s, %s)", m.Model, m.Preset, m.Provider, m.BaseURL)
	}
	return fmt.Sprintf("%s (%s, %s)", m.Model, m.Provider, m.BaseURL)
}

// notify shows a control update the user did not just read in a command's
// answer: why the model changed when no one asked (a stored model that
// cannot be restored), the plan todo_write made, a mention not attached.
// A mode or model set by /mode or /model is told by the command's answer.
func (c *session) notify(u control.Update) {
	switch u.Kind {
	case control.UpdateModel:
		c.mu.Lock()
		if c.opening && u.Message != "" {
			c.fellBack = true
		}
		c.mu.Unlock()
		if u.Message != "" {
			c.p.line(u.Message)
		}
	case control.UpdatePlan:
		c.mu.Lock()
		shown := c.planShown
		c.planShown = len(u.Plan) > 0
		c.mu.Unlock()
		if len(u.Plan) > 0 || shown { // a plan never shown needs no clearing
			c.p.plan(u.Plan)
		}
	case control.UpdateQueue: // what was typed while a turn runs (turn.go)
		if len(u.Queue) > 0 {
			c.p.dim(queueText(u.Queue))
		}
	case control.UpdateMention: // before the prompt runs: nothing is dropped in silence
		if r := u.Mention; r.Status != agent.MentionAttached {
			c.p.note(fmt.Sprintf("@%s not attached (%s): %s", r.Path, r.Status, r.Message))
		}
	}
}

// run runs one line: a command only the terminal has, else the line
// through the session (a prompt, a built-in command, an MCP prompt).
// answered is true when a command was answered without the model's
// turn; its answer is shown.
func (c *session) run(ctx context.Context, line string) (o agent.Outcome, answered bool, err error) {
	return c.runAs(ctx, line, control.DeliverWait)
}

// runAs is run with the prompt's delivery while another one runs
// (turn.go).
func (c *session) runAs(ctx context.Context, line string, d control.Delivery) (o agent.Outcome, answered bool, err error) {
	name, _, isCommand := control.ParseCommand(line)
	if isCommand {
		if handled, err := c.terminalCommand(name); handled {
			return agent.Outcome{}, true, err
		}
	}
	res, err := c.sess.Prompt(ctx, control.PromptInput{Text: line, Delivery: d}, c.p)
	if err != nil {
		if isCommand && errors.Is(err, control.ErrInvalid) && !c.known(name) {
			// The controller refused it, as the daemon does (-32602):
			// never sent to the model; the terminal suggests the nearest.
			return res.Outcome, true, unknownCommand(name, c.commandNames())
		}
		return res.Outcome, res.Answered, err
	}
	if res.Answered {
		c.p.line(res.Outcome.Text)
	}
	return res.Outcome, res.Answered, nil
}

// terminalCommand runs a command only the terminal has; handled is false
// for any other.
func (c *session) terminalCommand(name string) (handled bool, err error) {
	switch name {
	case "/help":
		c.help()
		return true, nil
	case "/session":
		c.p.line(fmt.Sprintf("session %s", c.sess.ID()))
		return true, nil
	case "/sessions":
		var b strings.Builder
		WriteSessions(&b, c.ctl.List(), c.root, time.Now())
		c.p.line(strings.TrimRight(b.String(), "\n"))
		return true, nil
	}
	return false, nil
}

// help lists the commands: the controller's (MCP prompts included) and
// the terminal's own.
func (c *session) help() {
	var b strings.Builder
	b.WriteString("commands:")
	for _, cmd := range c.sess.Commands() {
		fmt.Fprintf(&b, "\n  %-24s %s", cmd.Name, firstLine(cmd.Description))
	}
	for _, t := range terminalCommands {
		fmt.Fprintf(&b, "\n  %-24s %s", t.name, t.desc)
	}
	b.WriteString("\n" + TypeaheadHelp)
	c.p.line(b.String())
}

// windowBannerWait bounds how long the banner waits for the server to say
// its context window (a local server answers in milliseconds).
const windowBannerWait = 3 * time.Second

// windowLine says which context window the budget follows, and from where.
func (c *session) windowLine(ctx context.Context) string {
	ctx, cancel := context.WithTimeout(ctx, windowBannerWait)
	defer cancel()
	w := c.sess.WaitContextWindow(ctx)
	return fmt.Sprintf("context window: %d tokens (%s)", w.Tokens, windowSourceText(w.Source))
}

func windowSourceText(src string) string {
	switch src {
	case control.WindowFromSetting:
		return "--context-window"
	case control.WindowFromPreset:
		return "the preset"
	case control.WindowFromTable:
		return "known model"
	case control.WindowFromDefault:
		return "default: the server does not say; set --context-window"
	case control.WindowProbing:
		return "default until the server answers"
	}
	return src
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

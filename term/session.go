package main

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/agent/control"
	"github.com/agent-lsp/agent-lsp/tools"
)

// chatControl is the terminal's side of one controller session: it opens
// the session, runs prompts through it, shows the controller's updates,
// and renders in the terminal's own words the commands the controller
// answers with data (/mode, /model, /compact, /clear, /rewind, /help).
// What those commands do is the controller's.
type chatControl struct {
	ctl  *control.Controller
	sess *control.Session
	ws   *tools.Workspace
	p    *printer // where updates and command answers are shown
	// store and root list the sessions (/sessions): this workspace's first.
	store *agent.Store
	root  string

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

// open starts the session: a new one, or the stored one --resume or
// --continue names, with the model it was switched to.
func (c *chatControl) open(f *chatFlags, store *agent.Store, b control.Binding) error {
	c.store, c.root = store, workspaceRoot(f.dir)
	id, err := sessionToOpen(f, store, c.root)
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
		c.p.line(fmt.Sprintf("model: %s (%s, %s), as the session left it", m.Model, m.Provider, m.BaseURL))
	}
	if m := s.Mode(); m != agent.ModeDefault && m != f.mode {
		// A resumed session keeps its mode: say so, or "ask" refusing
		// edits would look like a bug.
		c.p.line(fmt.Sprintf("mode: %s (%s), as the session left it; /mode default changes it", m, m.Description()))
	}
	return nil
}

func (c *chatControl) setOpening(v bool) {
	c.mu.Lock()
	c.opening = v
	c.mu.Unlock()
}

// notify shows a control update: the mode or model now in force (after
// /mode or /model, or when a stored model cannot be restored) and the
// plan todo_write made.
func (c *chatControl) notify(u control.Update) {
	switch u.Kind {
	case control.UpdateMode:
		c.p.line(fmt.Sprintf("mode: %s (%s)", u.Mode, u.Mode.Description()))
	case control.UpdateModel:
		c.mu.Lock()
		opening := c.opening
		if opening && u.Message != "" {
			c.fellBack = true
		}
		c.mu.Unlock()
		switch {
		case u.Message != "":
			c.p.line(u.Message)
		case !opening: // a restored model is told once open returns
			c.p.line(fmt.Sprintf("model: %s (%s, %s), from the next request on", u.Model.Model, u.Model.Provider, u.Model.BaseURL))
		}
	case control.UpdatePlan:
		c.mu.Lock()
		shown := c.planShown
		c.planShown = len(u.Plan) > 0
		c.mu.Unlock()
		if len(u.Plan) > 0 || shown { // a plan never shown needs no clearing
			c.p.plan(u.Plan)
		}
	case control.UpdateMention: // before the prompt runs: nothing is dropped in silence
		if r := u.Mention; r.Status != agent.MentionAttached {
			c.p.note(fmt.Sprintf("@%s not attached (%s): %s", r.Path, r.Status, r.Message))
		}
	}
}

// prompt runs one prompt with its @mentions attached (the mention
// updates say which could not be), or a slash command the chat does not
// render itself (an MCP prompt).
func (c *chatControl) prompt(ctx context.Context, text string) (agent.Outcome, error) {
	p := c.p
	res, err := c.sess.Prompt(ctx, control.PromptInput{Text: text}, p)
	if err != nil {
		return res.Outcome, err
	}
	if res.Command != "" && control.IsBuiltin(res.Command) {
		// A built-in command the chat has no words of its own for
		// answers with its text, not with events.
		p.line(res.Outcome.Text)
	}
	return res.Outcome, nil
}

// command runs line when it is a command the terminal renders itself;
// handled is false for any other line (a prompt, or a slash command the
// controller runs as one).
func (c *chatControl) command(ctx context.Context, line string) (handled bool, err error) {
	name, arg, ok := control.ParseCommand(line)
	if !ok {
		return false, nil
	}
	switch name {
	case "/mode":
		return true, c.mode(arg)
	case "/model":
		return true, c.model(arg)
	case "/rewind":
		return true, c.rewind(ctx, arg)
	case "/compact":
		c.compact(ctx)
		return true, nil
	case "/clear":
		if err := c.sess.Clear(ctx); err != nil {
			return true, fmt.Errorf("/clear: %w", err)
		}
		c.p.line("conversation cleared")
		return true, nil
	case "/help":
		c.help()
		return true, nil
	case "/session":
		c.p.line(fmt.Sprintf("session %s", c.sess.ID()))
		return true, nil
	case "/sessions":
		return true, c.sessions()
	}
	// Anything else the session does not know is refused here, as the
	// daemon refuses it (-32602): never sent to the model as a prompt.
	for _, cmd := range c.sess.Commands() {
		if cmd.Name == name {
			return false, nil
		}
	}
	return true, unknownCommand(name, c.commandNames())
}

// terminalCommands are the commands only the terminal has.
var terminalCommands = []struct{ name, desc string }{
	{"/help", "List the commands"},
	{"/session", "Show this session's id (--resume takes it)"},
	{"/sessions", "List the stored sessions, this workspace's first"},
	{"/exit", "Quit (Ctrl-D too)"},
}

func (c *chatControl) commandNames() []string {
	var names []string
	for _, cmd := range c.sess.Commands() {
		names = append(names, cmd.Name)
	}
	for _, t := range terminalCommands {
		names = append(names, t.name)
	}
	return append(names, "/quit")
}

// unknownCommand refuses a command, naming the closest known one.
func unknownCommand(name string, known []string) error {
	best, bestD := "", 3 // a suggestion within two edits
	for _, k := range known {
		if d := editDistance(strings.ToLower(name), k); d < bestD {
			best, bestD = k, d
		}
	}
	if best != "" {
		return fmt.Errorf("unknown command %s: did you mean %s? (/help lists the commands; nothing was sent)", name, best)
	}
	return fmt.Errorf("unknown command %s (/help lists the commands; nothing was sent)", name)
}

// editDistance is the Levenshtein distance of a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// sessions lists the stored sessions.
func (c *chatControl) sessions() error {
	if c.store == nil {
		return fmt.Errorf("/sessions: sessions are not stored (--no-save)")
	}
	list, err := c.store.List()
	if err != nil {
		return fmt.Errorf("/sessions: %w", err)
	}
	var b strings.Builder
	writeSessions(&b, list, c.root, time.Now())
	c.p.line(strings.TrimRight(b.String(), "\n"))
	return nil
}

func (c *chatControl) mode(arg string) error {
	if arg == "" {
		var b strings.Builder
		fmt.Fprintf(&b, "mode: %s", c.sess.Mode())
		for _, m := range agent.Modes {
			fmt.Fprintf(&b, "\n  %-9s %s", m, m.Description())
		}
		c.p.line(b.String())
		return nil
	}
	_, err := c.sess.SetMode(arg) // the mode update shows it
	return err
}

// model lists the presets, or switches to a preset or, for any other name,
// to that model on the current provider.
func (c *chatControl) model(arg string) error {
	presets := c.ctl.Presets()
	if arg == "" {
		m := c.sess.Model()
		var b strings.Builder
		fmt.Fprintf(&b, "model: %s (%s, %s)", m.Model, m.Provider, m.BaseURL)
		for _, p := range presets {
			fmt.Fprintf(&b, "\n  %-18s %s via %s", p.ID, p.Model, p.Provider)
		}
		c.p.line(b.String())
		return nil
	}
	choice := control.ModelChoice{Model: arg}
	for _, p := range presets {
		if strings.EqualFold(p.ID, arg) {
			choice = control.ModelChoice{Preset: p.ID}
		}
	}
	_, err := c.sess.SetModel(choice) // the model update shows it
	return err
}

// compact runs a manual compaction and reports it.
func (c *chatControl) compact(ctx context.Context) {
	p := c.p
	res, err := c.sess.Compact(ctx, p)
	switch {
	case err != nil:
		p.OnEvent(agent.Event{Kind: agent.EventError, Err: fmt.Errorf("compact: %w", err)})
	case res.Elided == 0 && res.Summarised == 0:
		p.dim(fmt.Sprintf("[nothing to compact: about %d tokens, all recent]", res.BeforeTokens))
	}
}

// help lists the commands: the controller's (MCP prompts included) and
// the terminal's own.
func (c *chatControl) help() {
	var b strings.Builder
	b.WriteString("commands:")
	for _, cmd := range c.sess.Commands() {
		fmt.Fprintf(&b, "\n  %-24s %s", cmd.Name, firstLine(cmd.Description))
	}
	for _, t := range terminalCommands {
		fmt.Fprintf(&b, "\n  %-24s %s", t.name, t.desc)
	}
	c.p.line(b.String())
}

// windowBannerWait bounds how long the banner waits for the server to say
// its context window (a local server answers in milliseconds).
const windowBannerWait = 3 * time.Second

// windowLine says which context window the budget follows, and from where.
func (c *chatControl) windowLine(ctx context.Context) string {
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

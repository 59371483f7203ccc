package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/provider/connect"
	"github.com/agent-lsp/agent-lsp/tools"
)

// chatControl runs the chat's /mode and /model and attaches @mentions:
// the same behaviour as the daemon's agent/setMode, agent/setModel and
// mentions, on a terminal session.
type chatControl struct {
	session *agent.Session
	ws      *tools.Workspace
	docs    tools.Documents
	cfg     provider.Config // the model the session talks to now
	opts    connect.Options // how to reach a model (no recording or replay)
	closers []func() error  // of the models switched to
}

// command runs line when it is /mode or /model and returns what to print;
// handled is false for any other line.
func (c *chatControl) command(line string) (msg string, handled bool, err error) {
	name, arg, _ := strings.Cut(strings.TrimSpace(line), " ")
	arg = strings.TrimSpace(arg)
	switch name {
	case "/mode":
		return c.setMode(arg)
	case "/model":
		return c.setModel(arg)
	}
	return "", false, nil
}

func (c *chatControl) setMode(arg string) (string, bool, error) {
	if arg == "" {
		var b strings.Builder
		fmt.Fprintf(&b, "mode: %s", c.session.Mode())
		for _, m := range agent.Modes {
			fmt.Fprintf(&b, "\n  %-9s %s", m, m.Description())
		}
		return b.String(), true, nil
	}
	m, err := agent.ParseMode(arg)
	if err != nil {
		return "", true, err
	}
	if err := c.session.SetMode(m); err != nil {
		return "", true, err
	}
	return fmt.Sprintf("mode: %s (%s)", m, m.Description()), true, nil
}

// setModel switches to a preset (provider.DefaultPresets) or, for any
// other name, to that model on the current provider.
func (c *chatControl) setModel(arg string) (string, bool, error) {
	presets := provider.DefaultPresets()
	if arg == "" {
		var b strings.Builder
		fmt.Fprintf(&b, "model: %s (%s, %s)", c.cfg.Model, c.cfg.Provider, c.cfg.BaseURL)
		for _, p := range presets {
			fmt.Fprintf(&b, "\n  %-18s %s via %s", p.ID, p.Model, p.Provider)
		}
		return b.String(), true, nil
	}
	cfg := c.cfg
	if p, ok := provider.FindPreset(presets, arg); ok {
		cfg = p.Apply(cfg)
	} else {
		cfg.Model = arg
	}
	p, closeModel, err := connect.New(cfg, c.opts)
	if err != nil {
		return "", true, fmt.Errorf("model %s: %w", cfg.Model, err)
	}
	// The record stores the switch with the session (the key's variable by
	// name, never the key): --resume and --continue reconnect it.
	if err := c.session.SetModel(agent.ModelRecordOf(cfg).Settings(p)); err != nil {
		_ = closeModel()
		return "", true, err
	}
	c.closers = append(c.closers, closeModel)
	c.cfg = cfg
	return fmt.Sprintf("model: %s (%s, %s), from the next request on", cfg.Model, cfg.Provider, cfg.BaseURL), true, nil
}

// restoreModel reconnects a resumed session to the model it was switched
// to, as stored with it, and returns what to tell the user ("" when the
// session was never switched). When that fails (the key's variable is not
// set now), the session keeps the configured model and the line says why.
func (c *chatControl) restoreModel() string {
	rec, ok := c.session.StoredModel()
	if !ok {
		return ""
	}
	cfg := rec.Config(c.cfg)
	p, closeModel, err := connect.New(cfg, c.opts)
	if err == nil {
		if err = c.session.SetModel(rec.Settings(p)); err != nil {
			_ = closeModel()
		}
	}
	if err != nil {
		return fmt.Sprintf("the session's model %s (%s, %s) cannot be used now: %v; using %s (%s, %s) until /model switches again",
			cfg.Model, cfg.Provider, cfg.BaseURL, err, c.cfg.Model, c.cfg.Provider, c.cfg.BaseURL)
	}
	c.closers = append(c.closers, closeModel)
	c.cfg = cfg
	return fmt.Sprintf("model: %s (%s, %s), as the session left it", cfg.Model, cfg.Provider, cfg.BaseURL)
}

// attach returns the prompt with the files it @mentions attached, and a
// line for each mention that could not be (nothing is dropped in silence).
func (c *chatControl) attach(ctx context.Context, prompt string) (string, []string) {
	text, reports := agent.AttachMentions(ctx, c.ws, c.docs, prompt, nil)
	var notes []string
	for _, r := range reports {
		if r.Status != agent.MentionAttached {
			notes = append(notes, fmt.Sprintf("@%s not attached (%s): %s", r.Path, r.Status, r.Message))
		}
	}
	return text, notes
}

// close closes the models switched to.
func (c *chatControl) close() error {
	var errs []error
	for _, f := range c.closers {
		errs = append(errs, f())
	}
	return errors.Join(errs...)
}

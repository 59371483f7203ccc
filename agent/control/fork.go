package control

import (
	"fmt"
	"strings"
	"time"

	"github.com/agent-lsp/agent-lsp/agent"
)

// Fork starts a session bound to b whose conversation is a copy of
// session id's (loaded, or stored: then read, not resumed), from then on
// apart: its own id and file, totals from zero, the source's mode and
// model. Its title is the source's with "(fork)".
func (c *Controller) Fork(id string, b Binding) (*Session, error) {
	var nid string
	cfg, err := c.agentConfig(b, &nid)
	if err != nil {
		return nil, err
	}
	from, title, err := c.forkSource(id, cfg)
	if err != nil {
		return nil, err
	}
	c.onStoreError(&cfg, &nid)
	var s *Session
	bindSubagentModel(&cfg, &s)
	a := agent.ForkSession(cfg, from)
	nid = a.ID()
	if title = strings.TrimSpace(title); title != "" {
		title += " (fork)"
	}
	now := time.Now()
	s = newSession(c, a, b, title, now, now)
	s.restoreModel() // the source's model, as a resume binds it
	s.learnWindow(s.modelConfig(), s.agent.Model().ContextWindow)
	c.add(s)
	return s, nil
}

// forkSource is the session a fork copies: a loaded one as it is now, or
// a stored one read from its file (left unloaded).
func (c *Controller) forkSource(id string, cfg agent.Config) (*agent.Session, string, error) {
	if s, ok := c.Get(id); ok {
		return s.Agent(), s.Title(), nil
	}
	info, ok := c.stored(id)
	if c.o.Store == nil || !ok {
		return nil, "", unknownSession(id)
	}
	cfg.OnStoreError = nil
	a, err := agent.ResumeSession(cfg, id)
	if err != nil {
		return nil, "", &kindError{kind: ErrInvalid, msg: fmt.Sprintf("session %q cannot be read: %v", id, err), err: err}
	}
	return a, info.Title, nil
}

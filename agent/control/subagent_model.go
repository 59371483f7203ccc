package control

import (
	"context"
	"fmt"
	"strings"

	"github.com/agent-lsp/agent-lsp/agent"
)

// subagentModel connects the model preset a custom subagent names (its
// front matter's model), once per preset for the session: a child talks
// to it instead of the session's model.
func (s *Session) subagentModel(_ context.Context, name string) (agent.ModelSettings, error) {
	id := strings.ToLower(strings.TrimSpace(name))
	s.mu.Lock()
	m, ok := s.subagentModels[id]
	s.mu.Unlock()
	if ok {
		return m, nil
	}
	ps, ok := s.c.preset(id)
	if !ok {
		return agent.ModelSettings{}, invalidf("unknown model preset %q (the model list names them)", name)
	}
	cfg := ps.Apply(s.modelConfig())
	if err := cfg.Validate(); err != nil {
		return agent.ModelSettings{}, invalidf("%v", err)
	}
	client, err := s.c.connect(cfg)
	if err != nil {
		return agent.ModelSettings{}, fmt.Errorf("connecting %s: %w", id, err)
	}
	m = agent.ModelRecordOf(cfg).Settings(client)
	if ps.Prices != nil && !cfg.Free {
		m.Pricing = ps.Prices.pricing()
	}
	s.mu.Lock()
	if s.subagentModels == nil {
		s.subagentModels = map[string]agent.ModelSettings{}
	}
	s.subagentModels[id] = m
	s.mu.Unlock()
	return m, nil
}

// bindSubagentModel makes cfg's custom subagents connect their presets
// through the session *s (set before any prompt runs).
func bindSubagentModel(cfg *agent.Config, s **Session) {
	cfg.SubagentModel = func(ctx context.Context, name string) (agent.ModelSettings, error) {
		return (*s).subagentModel(ctx, name)
	}
}

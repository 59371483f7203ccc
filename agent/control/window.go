package control

import (
	"context"
	"sync"

	"go.uber.org/zap"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/provider"
)

// Window sources besides the server's endpoint (WindowInfo.Source).
const (
	WindowFromSetting = provider.WindowSourceSetting // Config.ContextWindow: the user's
	WindowFromPreset  = "preset"                     // the user's preset's contextWindow
	WindowFromTable   = "table"                      // agent.KnownContextWindow knows the model
	WindowFromDefault = "default"                    // nothing knows it: agent's 128k guess
	WindowProbing     = "probing"                    // the server is being asked; the default holds meanwhile
)

// WindowInfo is the context window a session's budget follows and where
// it comes from: a source above, or "server: <endpoint> <field>".
type WindowInfo struct {
	Tokens int
	Source string
}

// windowState is a session's window and the probe that may change it.
type windowState struct {
	mu   sync.Mutex
	info WindowInfo
	done chan struct{} // closed when no probe runs
	gen  int           // of the latest learnWindow: an older probe's answer is dropped
}

func closedChan() chan struct{} { c := make(chan struct{}); close(c); return c }

// ContextWindow is the window the session's budget follows now.
func (s *Session) ContextWindow() WindowInfo {
	s.window.mu.Lock()
	defer s.window.mu.Unlock()
	return s.window.info
}

// WaitContextWindow waits for a running discovery (or ctx) and returns
// the window then in force.
func (s *Session) WaitContextWindow(ctx context.Context) WindowInfo {
	s.window.mu.Lock()
	done := s.window.done
	s.window.mu.Unlock()
	if done != nil {
		select {
		case <-done:
		case <-ctx.Done():
		}
	}
	return s.ContextWindow()
}

// ConfiguredWindow is the window a session of cfg starts from before any
// preset or server says otherwise: the setting, the table, else the
// default guess. Never 0, so that no front end has to guess one.
func ConfiguredWindow(cfg provider.Config) WindowInfo {
	if cfg.ContextWindow > 0 {
		return WindowInfo{cfg.ContextWindow, WindowFromSetting}
	}
	if known, ok := agent.KnownContextWindow(cfg.Model); ok {
		return WindowInfo{known, WindowFromTable}
	}
	return WindowInfo{agent.ContextWindow(cfg.Model), WindowFromDefault}
}

// learnWindow settles which window the session's budget follows for cfg
// (presetWindow: a user's preset's figure): the setting, the preset, the
// table, else the server's answer, asked in the background so that no
// request waits for it (the first rounds of a prompt are small), with the
// default meanwhile and when the server does not say.
func (s *Session) learnWindow(cfg provider.Config, presetWindow int) {
	info, probe := ConfiguredWindow(cfg), false
	switch {
	case info.Source == WindowFromSetting:
		s.agent.UseContextWindow(cfg.Model, cfg.ContextWindow)
	case presetWindow > 0:
		info = WindowInfo{presetWindow, WindowFromPreset}
	case info.Source == WindowFromDefault:
		probe = s.c.o.Windows != nil && cfg.Validate() == nil
	}
	done := closedChan()
	if probe {
		info.Source, done = WindowProbing, make(chan struct{})
	}
	s.window.mu.Lock()
	s.window.info, s.window.done = info, done
	s.window.gen++
	gen := s.window.gen
	s.window.mu.Unlock()
	if !probe {
		return
	}
	s.c.probes.Add(1)
	go func() { // owned by the controller: Close cancels and waits
		defer s.c.probes.Done()
		defer close(done)
		s.probeWindow(cfg, info, gen)
	}()
}

func (s *Session) probeWindow(cfg provider.Config, fallback WindowInfo, gen int) {
	log := s.c.log.With(zap.String("session", s.id), zap.String("model", cfg.Model), zap.String("baseURL", cfg.BaseURL))
	n, src, err := s.c.o.Windows.Window(s.c.probeCtx, cfg)
	got := WindowInfo{fallback.Tokens, WindowFromDefault}
	cur := s.modelConfig()
	switch {
	case cur.Model != cfg.Model || cur.BaseURL != cfg.BaseURL:
		return // switched meanwhile: the new model's own learnWindow decides
	case err != nil:
		log.Info("the server does not say the context window: the default holds", zap.Int("window", fallback.Tokens), zap.Error(err))
	default: // a fixed --budget still holds; the window is told all the same
		got = WindowInfo{n, "server: " + src}
		applied := s.agent.UseContextWindow(cfg.Model, n)
		log.Info("context window from the server", zap.Int("window", n), zap.String("source", src), zap.Bool("budgetFollows", applied))
	}
	s.window.mu.Lock()
	if s.window.gen == gen {
		s.window.info = got
	}
	s.window.mu.Unlock()
}

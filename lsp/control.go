package lsp

import (
	"encoding/json"
	"fmt"
	"sync"

	"go.lsp.dev/jsonrpc2"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/tools"
)

// control is what the user steers sessions with: the initial mode, the
// model presets, and each session's model once it was switched.
type control struct {
	mu      sync.Mutex
	mode    agent.Mode
	presets []modelPreset              // from initializationOptions.models
	models  map[string]provider.Config // session id → its model after agent/setModel
}

// controlOptions are the initializationOptions fields of this file.
type controlOptions struct {
	Mode   *string       `json:"mode"`
	Models []modelPreset `json:"models"`
}

// configure reads initializationOptions.mode and .models.
func (c *control) configure(raw json.RawMessage) error {
	var o controlOptions
	if err := decodeParams(raw, &o); err != nil {
		return jsonrpc2.Errorf(jsonrpc2.InvalidParams, "initializationOptions: %v", err)
	}
	mode := agent.ModeDefault
	if o.Mode != nil {
		m, err := agent.ParseMode(*o.Mode)
		if err != nil {
			return jsonrpc2.Errorf(jsonrpc2.InvalidParams, "initializationOptions.mode: %v", err)
		}
		mode = m
	}
	for _, p := range o.Models {
		if err := p.Validate(); err != nil {
			return jsonrpc2.Errorf(jsonrpc2.InvalidParams, "initializationOptions.models: %v", err)
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.mode, c.presets = mode, o.Models
	return nil
}

// initialMode is the mode a new session starts in.
func (c *control) initialMode() agent.Mode {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.mode == "" {
		return agent.ModeDefault
	}
	return c.mode
}

// sessionModel returns the session's switched model, if it was switched.
func (c *control) sessionModel(id string) (provider.Config, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	cfg, ok := c.models[id]
	return cfg, ok
}

func (c *control) setSessionModel(id string, cfg provider.Config) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.models == nil {
		c.models = map[string]provider.Config{}
	}
	c.models[id] = cfg
}

// modelOf is the model configuration a session talks to.
func (s *server) modelOf(sess *session) provider.Config {
	if cfg, ok := s.control.sessionModel(sess.id); ok {
		return cfg
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.settings.model
}

// sessionModelErr is why a session's prompts cannot reach a model: the
// daemon's model error, unless the session was switched to a working one.
func (s *server) sessionModelErr(sess *session) error {
	if _, ok := s.control.sessionModel(sess.id); ok {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.modelErr
}

// updateHeader starts every agent/update sent by this file's kinds.
type updateHeader struct {
	SessionID string `json:"sessionId"`
	Seq       int64  `json:"seq"`
	Kind      string `json:"kind"`
}

// Payloads of the control kinds of agent/update.
type (
	modeUpdate struct {
		updateHeader
		Mode string `json:"mode"`
	}
	modelUpdate struct {
		updateHeader
		Provider string `json:"provider"`
		Model    string `json:"model"`
		BaseURL  string `json:"baseURL"`
		// Message says why the model changed when the user did not ask
		// for it: a resumed session's stored model could not be reached.
		Message string `json:"message,omitempty"`
	}
	planUpdate struct {
		updateHeader
		Items []tools.TodoItem `json:"items"`
	}
	mentionUpdate struct {
		updateHeader
		agent.MentionReport
	}
)

// sendControlUpdate numbers and sends one update of a control kind,
// outside a prompt's listener; numbering and sending are one step
// (session.sendUpdate), so it keeps seq order with a streaming prompt's
// updates.
func (s *server) sendControlUpdate(sess *session, kind string, u any) {
	sess.sendUpdate(s, func(seq int64) any {
		h := updateHeader{SessionID: sess.id, Seq: seq, Kind: kind}
		switch u := u.(type) {
		case *modeUpdate:
			u.updateHeader = h
		case *modelUpdate:
			u.updateHeader = h
		case *planUpdate:
			u.updateHeader = h
		case *mentionUpdate:
			u.updateHeader = h
		default:
			panic(fmt.Sprintf("sendControlUpdate: %T", u))
		}
		return u
	})
}

// controlListener adds the control kinds of a prompt's events (the plan)
// to the prompt's update listener. The plan event comes from a tool's Run,
// after its tool_call update was sent and before its tool_result: the
// events of a prompt are delivered one at a time, so the order holds.
type controlListener struct {
	agent.Listener
	s    *server
	sess *session
}

func (l controlListener) OnEvent(e agent.Event) {
	if e.Kind == agent.EventPlan {
		items := e.Plan
		if items == nil {
			items = []tools.TodoItem{}
		}
		l.s.sendControlUpdate(l.sess, "plan", &planUpdate{Items: items})
		return
	}
	l.Listener.OnEvent(e)
}

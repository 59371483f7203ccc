package acp

import (
	"context"
	"fmt"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agent-lsp/agent-lsp/agent/control"
)

// authMethodID is the one authentication method offered when the model's
// key is missing: set the variable and restart the agent.
const authMethodID = "api-key-env"

// Initialize implements sdk.Agent.
func (a *server) Initialize(_ context.Context, p sdk.InitializeRequest) (sdk.InitializeResponse, error) {
	a.mu.Lock()
	a.caps = p.ClientCapabilities
	a.mu.Unlock()
	resp := sdk.InitializeResponse{
		ProtocolVersion: sdk.ProtocolVersionNumber,
		AgentInfo:       &sdk.Implementation{Name: "agent-lsp", Version: a.o.Version},
		AgentCapabilities: sdk.AgentCapabilities{
			LoadSession:        true,
			PromptCapabilities: sdk.PromptCapabilities{EmbeddedContext: true, Image: true},
			McpCapabilities:    sdk.McpCapabilities{Http: true, Sse: true},
			SessionCapabilities: sdk.SessionCapabilities{
				List: &sdk.SessionListCapabilities{}, Resume: &sdk.SessionResumeCapabilities{}, Close: &sdk.SessionCloseCapabilities{},
				Fork: &sdk.SessionForkCapabilities{},
			},
		},
		AuthMethods: []sdk.AuthMethod{},
	}
	if a.o.StoreErr != nil {
		// Nothing is stored: offering load, list or resume would lose a
		// session the client means to come back to.
		resp.AgentCapabilities.LoadSession = false
		resp.AgentCapabilities.SessionCapabilities.List, resp.AgentCapabilities.SessionCapabilities.Resume = nil, nil
		resp.AgentCapabilities.SessionCapabilities.Fork = nil
		resp.Meta = map[string]any{metaKey: map[string]any{"sessionsNotSaved": notSaved(a.o.StoreErr)}}
	}
	if a.o.KeyMissing {
		desc := fmt.Sprintf("Set %s in the environment agent-lsp is started with (or name another variable with --api-key-env), then restart it.", a.o.KeyEnv)
		resp.AuthMethods = append(resp.AuthMethods, sdk.AuthMethod{Agent: &sdk.AuthMethodAgent{Id: authMethodID, Name: "API key in " + a.o.KeyEnv, Description: &desc}})
	}
	return resp, nil
}

// Authenticate implements sdk.Agent: there is nothing to do in-band; the
// key comes from the environment at start.
func (a *server) Authenticate(_ context.Context, p sdk.AuthenticateRequest) (sdk.AuthenticateResponse, error) {
	if p.MethodId != authMethodID {
		return sdk.AuthenticateResponse{}, invalidParams(fmt.Errorf("unknown auth method %q", p.MethodId))
	}
	if a.o.KeyMissing {
		return sdk.AuthenticateResponse{}, sdk.NewAuthRequired(map[string]any{"error": a.o.KeyEnv + " is not set: set it and restart agent-lsp"})
	}
	return sdk.AuthenticateResponse{}, nil
}

// NewSession implements sdk.Agent.
func (a *server) NewSession(ctx context.Context, p sdk.NewSessionRequest) (sdk.NewSessionResponse, error) {
	if want, name, err := worktreeMeta(p.Meta); err != nil || want { // worktree.go
		if err != nil {
			return sdk.NewSessionResponse{}, invalidParams(err)
		}
		return a.newWorktreeSession(ctx, p, name)
	}
	extra, err := clientSystemPrompt(p.Meta)
	if err != nil {
		return sdk.NewSessionResponse{}, invalidParams(err)
	}
	s, b, err := a.bind(p.Cwd, p.McpServers)
	if err != nil {
		return sdk.NewSessionResponse{}, reqErr(err)
	}
	b.SystemPromptAppend = extra
	ctl, err := a.o.Control.NewSession(b, "")
	if err != nil {
		_ = s.close()
		return sdk.NewSessionResponse{}, reqErr(err)
	}
	a.attach(s, ctl)
	s.announceCommands()
	s.announceHooks()
	if a.o.StoreErr != nil {
		s.announceNotSaved(notSaved(a.o.StoreErr))
	}
	return sdk.NewSessionResponse{SessionId: s.id, Modes: modeState(ctl.Mode()), ConfigOptions: s.configOptions()}, nil
}

// notSaved is what the user reads when sessions cannot be saved.
func notSaved(err error) string {
	return "agent-lsp: sessions are not saved (" + err.Error() + "): set XDG_STATE_HOME or HOME in the agent's environment, or pass --state-dir"
}

// announceNotSaved tells the user, as the session's first message, that
// it will not be saved.
func (s *session) announceNotSaved(msg string) {
	s.announcing.Go(func() { s.send(context.Background(), sdk.UpdateAgentMessageText(msg+"\n\n")) }) // close waits
}

// announceCommands sends the session's slash commands once its id is the
// client's: right after the response that carries it.
func (s *session) announceCommands() {
	s.announcing.Go(s.ctl.NotifyCommands) // close waits
}

// LoadSession implements sdk.AgentLoader: the stored conversation is
// replayed as session/update before the answer.
func (a *server) LoadSession(ctx context.Context, p sdk.LoadSessionRequest) (sdk.LoadSessionResponse, error) {
	s, err := a.open(p.SessionId, p.Cwd, p.McpServers)
	if err != nil {
		return sdk.LoadSessionResponse{}, err
	}
	s.replay(ctx, s.ctl.Transcript())
	s.announceCommands()
	return sdk.LoadSessionResponse{Modes: modeState(s.ctl.Mode()), ConfigOptions: s.configOptions()}, nil
}

// ResumeSession implements sdk.Agent: like load, without the replay.
func (a *server) ResumeSession(_ context.Context, p sdk.ResumeSessionRequest) (sdk.ResumeSessionResponse, error) {
	s, err := a.open(p.SessionId, p.Cwd, p.McpServers)
	if err != nil {
		return sdk.ResumeSessionResponse{}, err
	}
	s.announceCommands()
	return sdk.ResumeSessionResponse{Modes: modeState(s.ctl.Mode()), ConfigOptions: s.configOptions()}, nil
}

// open binds a stored (or loaded) session to this client.
func (a *server) open(id sdk.SessionId, cwd string, servers []sdk.McpServer) (*session, error) {
	if s, err := a.session(id); err == nil {
		return s, nil // already open on this connection
	}
	if !a.o.Control.Known(string(id)) {
		return nil, resourceNotFound(fmt.Sprintf("no session %q", id))
	}
	if wt := a.o.Control.StoredWorktree(string(id)); wt != nil {
		return a.openInWorktree(id, cwd, servers, wt) // worktree.go
	}
	s, b, err := a.bind(cwd, servers)
	if err != nil {
		return nil, reqErr(err)
	}
	ctl, err := a.o.Control.Open(string(id), b)
	if err != nil {
		_ = s.close()
		return nil, reqErr(err)
	}
	a.attach(s, ctl)
	return s, nil
}

// ListSessions implements sdk.Agent: every session, loaded or stored,
// newest first; with cwd, only those of that directory.
func (a *server) ListSessions(_ context.Context, p sdk.ListSessionsRequest) (sdk.ListSessionsResponse, error) {
	out := sdk.ListSessionsResponse{Sessions: []sdk.SessionInfo{}}
	for _, info := range a.o.Control.List() {
		cwd := info.Root // the controller's: a loaded session's, or its stored header's
		if cwd == "" || (p.Cwd != nil && *p.Cwd != cwd) {
			continue // ACP needs a session's cwd: one we never knew is not listed
		}
		si := sdk.SessionInfo{SessionId: sdk.SessionId(info.ID), Cwd: cwd}
		if info.Title != "" {
			si.Title = sdk.Ptr(info.Title)
		}
		if !info.Updated.IsZero() {
			si.UpdatedAt = sdk.Ptr(info.Updated.UTC().Format("2006-01-02T15:04:05Z07:00"))
		}
		out.Sessions = append(out.Sessions, si)
	}
	return out, nil
}

// CloseSession implements sdk.Agent: its prompts are cancelled and it is
// forgotten here (it stays stored: load or resume bring it back).
func (a *server) CloseSession(_ context.Context, p sdk.CloseSessionRequest) (sdk.CloseSessionResponse, error) {
	s, ok := a.remove(p.SessionId)
	if !ok {
		return sdk.CloseSessionResponse{}, resourceNotFound(fmt.Sprintf("no open session %q", p.SessionId))
	}
	err := a.o.Control.CloseSession(string(p.SessionId))
	if cerr := s.close(); cerr != nil {
		a.log.Warn("closing a session's resources", zapSession(s), zapErr(cerr))
	}
	return sdk.CloseSessionResponse{}, reqErr(err)
}

// Cancel implements sdk.Agent: the running prompt, its steer messages and
// a compaction end; the queued prompts run next, unless
// _meta["agent-lsp"].dropQueue removes them (queue.go). Prompts run
// detached from the SDK's request context (Prompt), so this is what
// cancels them.
func (a *server) Cancel(_ context.Context, p sdk.CancelNotification) error {
	if s, err := a.session(p.SessionId); err == nil {
		if cancelDropsQueue(p.Meta) {
			s.ctl.DropQueue()
		}
		s.ctl.Cancel(errCancelled)
	}
	return nil
}

// SetSessionMode implements sdk.Agent.
func (a *server) SetSessionMode(_ context.Context, p sdk.SetSessionModeRequest) (sdk.SetSessionModeResponse, error) {
	s, err := a.session(p.SessionId)
	if err != nil {
		return sdk.SetSessionModeResponse{}, err
	}
	if _, err := s.ctl.SetMode(string(p.ModeId)); err != nil {
		return sdk.SetSessionModeResponse{}, reqErr(err)
	}
	return sdk.SetSessionModeResponse{}, nil
}

// SetSessionConfigOption implements sdk.Agent: mode, and model (a preset
// id, switched through the controller).
func (a *server) SetSessionConfigOption(_ context.Context, p sdk.SetSessionConfigOptionRequest) (sdk.SetSessionConfigOptionResponse, error) {
	v := p.ValueId
	if v == nil {
		return sdk.SetSessionConfigOptionResponse{}, invalidParams(fmt.Errorf("only select options exist here (mode, model)"))
	}
	s, err := a.session(v.SessionId)
	if err != nil {
		return sdk.SetSessionConfigOptionResponse{}, err
	}
	if handled, err := s.setSpendOption(v.ConfigId, v.Value); handled { // spend.go
		if err != nil {
			return sdk.SetSessionConfigOptionResponse{}, reqErr(err)
		}
		return sdk.SetSessionConfigOptionResponse{ConfigOptions: s.configOptions()}, nil
	}
	switch v.ConfigId {
	case configMode:
		_, err = s.ctl.SetMode(string(v.Value))
	case configModel:
		choice := control.ModelChoice{Preset: string(v.Value)}
		if v.Value == configuredValue {
			choice = control.ModelChoice{Configured: true}
		}
		_, err = s.ctl.SetModel(choice)
	default:
		err = invalidParams(fmt.Errorf("unknown config option %q (mode, model)", v.ConfigId))
	}
	if err != nil {
		return sdk.SetSessionConfigOptionResponse{}, reqErr(err)
	}
	return sdk.SetSessionConfigOptionResponse{ConfigOptions: s.configOptions()}, nil
}

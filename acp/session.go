package acp

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"

	sdk "github.com/coder/acp-go-sdk"
	"go.uber.org/zap"

	"github.com/agent-lsp/agent-lsp/agent/control"
	"github.com/agent-lsp/agent-lsp/agent/world"
	"github.com/agent-lsp/agent-lsp/mcp"
	"github.com/agent-lsp/agent-lsp/permission"
	"github.com/agent-lsp/agent-lsp/tools"
)

// defaultContextWindow is the size reported when none is configured.
const defaultContextWindow = 128_000

// session is one ACP session: the controller's session and what binds it
// to this client (its workspace, MCP servers, documents, terminals).
type session struct {
	id    sdk.SessionId
	srv   *server
	peer  peer
	ctl   *control.Session
	ws    *tools.Workspace
	mcp   *mcp.Manager // nil: the client gave no MCP server
	diffs *diffRecorder
	terms terminals
	term  *terminalRunner // nil: the client has no terminal
	log   *zap.Logger
	// hooksNotice says the workspace's hooks do not run yet ("": none).
	hooksNotice string

	closers []func() error
	once    sync.Once
	// announcing are the session's announcements sent after the response
	// that makes its id the client's (methods.go); close waits for them,
	// so none logs or sends after the session is gone.
	announcing sync.WaitGroup
}

// send sends one session/update; a failure (the client is gone) is only
// logged: the prompt's outcome is what matters.
func (s *session) send(ctx context.Context, u sdk.SessionUpdate) {
	if err := s.peer.SessionUpdate(ctx, sdk.SessionNotification{SessionId: s.id, Update: u}); err != nil {
		s.log.Debug("session/update not sent", zap.String("session", string(s.id)), zap.Error(err))
	}
}

// contextSize is the context window of the session's model: the
// controller's (a setting, the user's preset, the tables, or what the
// server said), else its preset's, else Options.ContextWindow, else 128k.
func (s *session) contextSize() int {
	if w := s.ctl.ContextWindow(); w.Tokens > 0 {
		return w.Tokens
	}
	if id := s.ctl.Model().Preset; id != "" {
		for _, p := range s.srv.o.Control.Presets() {
			if p.ID == id && p.ContextWindow > 0 {
				return p.ContextWindow
			}
		}
	}
	if n := s.srv.o.ContextWindow; n > 0 {
		return n
	}
	return defaultContextWindow
}

// close forgets the session's client-side resources: its MCP servers,
// its runner's sandbox, its workspace root.
func (s *session) close() error {
	var err error
	s.once.Do(func() {
		s.announcing.Wait()
		var errs []error
		if s.mcp != nil {
			errs = append(errs, s.mcp.Close())
		}
		for _, c := range s.closers {
			errs = append(errs, c())
		}
		errs = append(errs, s.ws.Close())
		err = errors.Join(errs...)
	})
	return err
}

// bind makes what a session needs from this client: the workspace at cwd,
// the tools (builtins and the client's MCP servers, trusted like editor
// settings), the documents and the runner its capabilities allow, the
// approver. The session id is set by the caller before the session is
// reachable (server.add).
func (a *server) bind(cwd string, servers []sdk.McpServer) (*session, control.Binding, error) {
	if !filepath.IsAbs(cwd) {
		return nil, control.Binding{}, invalidParams(fmt.Errorf("cwd %q is not an absolute path", cwd))
	}
	configs, err := mcpConfigs(servers)
	if err != nil {
		return nil, control.Binding{}, invalidParams(err)
	}
	ws, err := tools.NewWorkspace(cwd)
	if err != nil {
		return nil, control.Binding{}, invalidParams(fmt.Errorf("cwd: %w", err))
	}
	ws.SetProtectedFiles(a.o.ProtectedFiles)
	if a.o.MCP != nil {
		configs = append(configs, a.o.MCP(ws.Roots()[0])...)
	}
	p, caps := a.clientCaps()
	s := &session{srv: a, peer: p, ws: ws, log: a.log}
	subagents := world.Subagents(ws.Roots(), "")
	reg, err := world.NewRegistry(a.o.WebFetch, subagents)
	if err != nil {
		_ = ws.Close()
		return nil, control.Binding{}, err
	}
	b := control.Binding{Workspace: ws, Tools: reg, Notify: s.notify, Subagents: subagents}

	var local tools.CommandRunner
	if a.o.LocalRunner != nil {
		r, autoAllow, closeFn, err := a.o.LocalRunner(ws)
		if err != nil {
			_ = ws.Close()
			return nil, control.Binding{}, fmt.Errorf("command runner: %w", err)
		}
		local, b.AutoAllowSandboxed = r, autoAllow
		if closeFn != nil {
			s.closers = append(s.closers, closeFn)
		}
	}
	switch {
	case caps.Terminal:
		s.term = &terminalRunner{s: s, local: local, attachWait: attachWait}
		b.Runner = s.term
	case local != nil:
		b.Runner = local
	}
	var docs tools.Documents = &tools.DiskDocuments{Workspace: ws}
	if caps.Fs.ReadTextFile || caps.Fs.WriteTextFile {
		cd := newClientDocs(ws, s)
		cd.clientRead, cd.clientWrite = caps.Fs.ReadTextFile, caps.Fs.WriteTextFile
		// The client writes by path while our commands may run: they are
		// frozen around its writes. (A command in the client's terminal
		// is the stub's child, not ours: the path check alone covers it.)
		if f, ok := local.(tools.CommandFreezer); ok {
			cd.commands = f
		}
		docs = cd
	}
	s.diffs = newDiffRecorder(docs)
	b.Docs = s.diffs
	s.bindHooks(&b, local) // hooks.go
	if a.o.AutoApprove {
		b.Approver = permission.AutoApprover{}
	} else {
		b.Approver = &approver{s: s}
	}
	if len(configs) > 0 {
		s.mcp = mcp.NewManager(reg, ws.Roots(), a.log.Named("mcp"))
		world.StartMCP(a.ctx, s.mcp, configs) // one still starting mounts its tools (and commands) later
		b.Prompts = s.mcp
	}
	return s, b, nil
}

// attach puts the control session behind s and makes it reachable.
func (a *server) attach(s *session, ctl *control.Session) {
	s.ctl = ctl
	s.id = sdk.SessionId(ctl.ID())
	if s.mcp != nil {
		s.mcp.OnChange(ctl.NotifyCommands)
	}
	a.add(s)
}

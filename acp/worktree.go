package acp

import (
	"context"
	"fmt"
	"path/filepath"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/agent/control"
	"github.com/agent-lsp/agent-lsp/tools"
)

// worktreeMeta reads session/new's _meta {"agent-lsp": {"worktree": true
// | "name"}}: whether to start the session in a new git worktree, and its
// name ("": a fresh one).
func worktreeMeta(meta map[string]any) (want bool, name string, err error) {
	ours, ok := meta[metaKey].(map[string]any)
	if !ok {
		return false, "", nil
	}
	switch v := ours["worktree"].(type) {
	case nil:
		return false, "", nil
	case bool:
		return v, "", nil
	case string:
		return true, v, nil
	}
	return false, "", fmt.Errorf("_meta.%s.worktree is true or a name, not %v", metaKey, ours["worktree"])
}

// worktreeMetaOf is the _meta answer naming a session's worktree.
func worktreeMetaOf(wt *agent.Worktree) map[string]any {
	return map[string]any{metaKey: map[string]any{"worktree": map[string]any{"path": wt.Path, "branch": wt.Branch, "base": wt.Base}}}
}

// newWorktreeSession is session/new in a new git worktree of cwd's
// repository: the session is bound to the worktree as to a cwd of its
// own (its files, tools, MCP servers, commands and sandbox there), and
// its work goes back to cwd through this client.
func (a *server) newWorktreeSession(ctx context.Context, p sdk.NewSessionRequest, name string) (sdk.NewSessionResponse, error) {
	homeWS, err := a.homeWorkspace(p.Cwd)
	if err != nil {
		return sdk.NewSessionResponse{}, reqErr(err)
	}
	var s *session
	home := control.Binding{Workspace: homeWS, BindWorktree: func(root string) (control.Binding, error) {
		ws, b, err := a.bind(root, p.McpServers)
		if err != nil {
			return control.Binding{}, err
		}
		s = ws
		a.setHome(&b, s, homeWS)
		return b, nil
	}}
	ctl, err := a.o.Control.NewWorktreeSession(ctx, home, "", name)
	if err != nil {
		if s != nil {
			_ = s.close()
		}
		_ = homeWS.Close()
		return sdk.NewSessionResponse{}, reqErr(err)
	}
	s.closers = append(s.closers, homeWS.Close)
	a.attach(s, ctl)
	s.announceCommands()
	return sdk.NewSessionResponse{SessionId: s.id, Modes: modeState(ctl.Mode()), ConfigOptions: s.configOptions(),
		Meta: worktreeMetaOf(ctl.Worktree())}, nil
}

// openInWorktree binds a stored session that works in the git worktree
// wt to it, its work going back to cwd.
func (a *server) openInWorktree(id sdk.SessionId, cwd string, servers []sdk.McpServer, wt *agent.Worktree) (*session, error) {
	homeWS, err := a.homeWorkspace(cwd)
	if err != nil {
		return nil, reqErr(err)
	}
	s, b, err := a.bind(wt.Path, servers)
	if err != nil {
		_ = homeWS.Close()
		return nil, reqErr(err)
	}
	a.setHome(&b, s, homeWS)
	s.closers = append(s.closers, homeWS.Close)
	home := control.Binding{Workspace: homeWS, BindWorktree: func(string) (control.Binding, error) { return b, nil }}
	ctl, err := a.o.Control.Open(string(id), home)
	if err != nil {
		_ = s.close()
		return nil, reqErr(err)
	}
	a.attach(s, ctl)
	return s, nil
}

// homeWorkspace is the client's cwd as the workspace a worktree
// session's work goes back to.
func (a *server) homeWorkspace(cwd string) (*tools.Workspace, error) {
	if !filepath.IsAbs(cwd) {
		return nil, invalidParams(fmt.Errorf("cwd %q is not an absolute path", cwd))
	}
	ws, err := tools.NewWorkspace(cwd)
	if err != nil {
		return nil, invalidParams(fmt.Errorf("cwd: %w", err))
	}
	ws.SetProtectedFiles(a.o.ProtectedFiles)
	return ws, nil
}

// setHome makes b's home the client's cwd: reviewed work lands there
// through the client's documents (its buffers, when it offers fs), and
// the user is asked through the session's own permission requests.
func (a *server) setHome(b *control.Binding, s *session, homeWS *tools.Workspace) {
	var docs tools.Documents = &tools.DiskDocuments{Workspace: homeWS}
	if _, caps := a.clientCaps(); caps.Fs.ReadTextFile || caps.Fs.WriteTextFile {
		cd := newClientDocs(homeWS, s)
		cd.clientRead, cd.clientWrite = caps.Fs.ReadTextFile, caps.Fs.WriteTextFile
		docs = cd
	}
	b.Home = &control.Binding{Workspace: homeWS, Docs: docs, Approver: b.Approver}
}

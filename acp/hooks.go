package acp

import (
	"context"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agent-lsp/agent-lsp/agent/control"
	"github.com/agent-lsp/agent-lsp/agent/world"
	"github.com/agent-lsp/agent-lsp/tools"
)

// bindHooks gives the session the user's hooks and its workspace's (run
// once trusted). They run in our process runner, local (in the OS sandbox),
// never the client's terminal: a hook reads its JSON on stdin. What a hook
// says to the user, and a workspace's hooks that do not run yet, are
// agent messages of the session.
func (s *session) bindHooks(b *control.Binding, local tools.CommandRunner) {
	runner := local
	if runner == nil {
		runner = tools.NewProcessRunner(nil)
	}
	say := func(msg string) {
		go s.send(context.Background(), sdk.UpdateAgentMessageText("agent-lsp: "+msg+"\n\n")) // owner: the session; returns once sent
	}
	if r := world.Hooks(s.srv.o.Hooks, s.ws, runner, s.srv.o.Control.RuleFiles(), say, s.log); r != nil {
		b.Hooks = r
		s.hooksNotice = r.Untrusted() // said once the session has its id (announceHooks)
	}
}

// announceHooks tells the user of the workspace's hooks that do not run
// yet, once the session's id is the client's.
func (s *session) announceHooks() {
	if s.hooksNotice != "" {
		go s.send(context.Background(), sdk.UpdateAgentMessageText("agent-lsp: "+s.hooksNotice+"\n\n")) // owner: the session; returns once sent
	}
}

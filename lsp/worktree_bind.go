package lsp

import (
	"sync"

	"go.uber.org/zap"

	"github.com/agent-lsp/agent-lsp/agent/control"
	"github.com/agent-lsp/agent-lsp/agent/world"
	"github.com/agent-lsp/agent-lsp/tools"
	"github.com/agent-lsp/agent-lsp/tools/sandbox"
)

// worktreeBoxes are the command sandboxes of the worktree sessions, one
// per worktree, rooted there: a command of such a session writes in its
// worktree, never in the user's checkout.
type worktreeBoxes struct {
	mu    sync.Mutex
	boxes map[string]*sandbox.Sandbox // worktree root → its sandbox
}

// bindWorktree is control.WorktreeOptions.Bind: a session in the worktree
// at root works there (its workspace, the disk: the editor has no buffer
// of it), runs its commands in a sandbox rooted there, and is asked as
// the editor's sessions are, about paths of the worktree.
func (s *server) bindWorktree(home control.Binding, root string) (control.Binding, error) {
	ws, err := tools.NewWorkspace(root)
	if err != nil {
		return control.Binding{}, err
	}
	ws.SetProtectedFiles(home.Workspace.ProtectedFiles())
	b := home
	b.Workspace, b.Docs, b.Notes, b.Runner = ws, nil, nil, nil
	if a, ok := home.Approver.(editorApprover); ok {
		a.ws = ws
		b.Approver = a
	}
	s.mu.Lock()
	settings, on := s.sandbox.settings, s.sandbox.box != nil
	s.mu.Unlock()
	if !on {
		return b, nil // the daemon's commands run under approvals only; so do these
	}
	s.worktrees.mu.Lock()
	defer s.worktrees.mu.Unlock()
	box, ok := s.worktrees.boxes[root]
	if !ok {
		if box, err = world.OpenSandbox(settings, s.store, ws, s.log); err != nil {
			return control.Binding{}, err
		}
		if s.worktrees.boxes == nil {
			s.worktrees.boxes = map[string]*sandbox.Sandbox{}
		}
		s.worktrees.boxes[root] = box
	}
	b.Runner = tools.NewProcessRunner(box)
	return b, nil
}

// releaseWorktree is control.WorktreeOptions.Release: the worktree is
// gone, and so is its sandbox.
func (s *server) releaseWorktree(root string) {
	s.worktrees.mu.Lock()
	box := s.worktrees.boxes[root]
	delete(s.worktrees.boxes, root)
	s.worktrees.mu.Unlock()
	if box != nil {
		if err := box.Close(); err != nil {
			s.log.Warn("worktree sandbox", zap.Error(err))
		}
	}
}

// closeWorktreeBoxes closes every worktree sandbox, when the daemon ends.
func (s *server) closeWorktreeBoxes() {
	s.worktrees.mu.Lock()
	roots := make([]string, 0, len(s.worktrees.boxes))
	for root := range s.worktrees.boxes {
		roots = append(roots, root)
	}
	s.worktrees.mu.Unlock()
	for _, root := range roots {
		s.releaseWorktree(root)
	}
}

package term

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/agent/control"
	"github.com/agent-lsp/agent-lsp/tools"
	"github.com/agent-lsp/agent-lsp/tools/sandbox"
)

// worktreeBinder binds a chat session that works in a git worktree
// (--worktree): its workspace rooted there, on the disk, its commands in
// a sandbox of their own rooted there (never writing in the user's
// checkout), asked on the terminal as the chat's other sessions are.
type worktreeBinder struct {
	o        Options
	store    *agent.Store
	progress io.Writer

	mu    sync.Mutex
	boxes map[string]*sandbox.Sandbox // worktree root → its sandbox
}

func (w *worktreeBinder) options() control.WorktreeOptions {
	return control.WorktreeOptions{Dir: w.o.WorktreeDir, Bind: w.bind, Release: w.release}
}

func (w *worktreeBinder) bind(home control.Binding, root string) (control.Binding, error) {
	ws, err := tools.NewWorkspace(root)
	if err != nil {
		return control.Binding{}, err
	}
	ws.SetProtectedFiles(home.Workspace.ProtectedFiles())
	w.mu.Lock()
	defer w.mu.Unlock()
	box, ok := w.boxes[root]
	if !ok {
		if box, err = openSandbox(w.o, ws, w.store, w.progress); err != nil {
			return control.Binding{}, err
		}
		if w.boxes == nil {
			w.boxes = map[string]*sandbox.Sandbox{}
		}
		w.boxes[root] = box
	}
	b := home
	b.Workspace, b.Docs, b.Runner = ws, &tools.DiskDocuments{Workspace: ws}, tools.NewProcessRunner(box)
	return b, nil
}

// release closes the sandbox of a removed worktree.
func (w *worktreeBinder) release(root string) {
	w.mu.Lock()
	box := w.boxes[root]
	delete(w.boxes, root)
	w.mu.Unlock()
	if box != nil {
		_ = box.Close() // its private temp dir only
	}
}

// close closes every worktree sandbox, when the chat ends.
func (w *worktreeBinder) close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	var errs []error
	for root, box := range w.boxes {
		errs = append(errs, box.Close())
		delete(w.boxes, root)
	}
	return errors.Join(errs...)
}

// openInWorktree starts the chat's session in a new git worktree, and
// says where.
func (c *session) openInWorktree(ctx context.Context, b control.Binding, name string) error {
	s, err := c.ctl.NewWorktreeSession(ctx, b, "", name)
	if err != nil {
		return fmt.Errorf("new session in a worktree: %w", err)
	}
	c.sess = s
	wt := s.Worktree()
	c.p.line(fmt.Sprintf("worktree: %s (branch %s); /worktree review, apply or merge brings its work back, /worktree remove removes it", wt.Path, wt.Branch))
	return nil
}

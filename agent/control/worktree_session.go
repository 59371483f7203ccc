package control

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"time"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/agent/control/worktree"
)

// WorktreeOptions say where sessions started in their own git worktree
// go and how a front end binds one.
type WorktreeOptions struct {
	// Dir is the directory new worktrees are made in ("": beside the
	// repository, in <repo>.worktrees; relative: to the repository's top
	// level).
	Dir string
	// Bind makes the binding of a session working in the worktree at
	// root from the front end's binding of the user's checkout (home):
	// its workspace rooted there, its files on the disk (no editor holds
	// the worktree's buffers), its commands in a sandbox rooted there, its
	// own approvals. nil: the front end offers no worktree sessions.
	Bind func(home Binding, root string) (Binding, error)
	// Release frees what Bind made for root, once its worktree is
	// removed (nil: nothing to free).
	Release func(root string)
}

// cleanupTimeout bounds the removal of a worktree whose session could
// not start, which runs even when the request that made it was cancelled.
const cleanupTimeout = 30 * time.Second

// NewWorktreeSession starts a session in a new git worktree of the
// repository of home's workspace, named name ("": a fresh name), on the
// branch agent-lsp/<name> from the checkout's HEAD. The session is stored
// at once, with its worktree, so a restart finds both.
func (c *Controller) NewWorktreeSession(ctx context.Context, home Binding, title, name string) (*Session, error) {
	if c.o.Worktrees.Bind == nil && home.BindWorktree == nil {
		return nil, invalidf("this front end cannot start sessions in a worktree")
	}
	if home.Workspace == nil {
		return nil, ErrNotInitialized
	}
	if name == "" {
		name = worktree.NewName(time.Now())
	}
	tree, err := worktree.Create(ctx, home.Workspace.Roots()[0], c.o.Worktrees.Dir, name)
	if err != nil {
		return nil, worktreeError(err)
	}
	wt := &agent.Worktree{Path: tree.Path, Branch: tree.Branch, Base: tree.Base, Repo: tree.Repo}
	s, err := c.startInWorktree(home, wt, title)
	if err != nil {
		cleanup, cancel := context.WithTimeout(context.WithoutCancel(ctx), cleanupTimeout)
		defer cancel()
		if _, rerr := worktree.Remove(cleanup, tree, false); rerr != nil { // fresh: nothing of the user's in it
			c.log.Warn("removing the worktree of a session that did not start: " + rerr.Error())
		}
		return nil, err
	}
	return s, nil
}

func (c *Controller) startInWorktree(home Binding, wt *agent.Worktree, title string) (*Session, error) {
	b, err := c.bind(home, wt.Path)
	if err != nil {
		return nil, err
	}
	var id string
	cfg, err := c.agentConfig(b, &id)
	if err != nil {
		c.release(wt.Path)
		return nil, err
	}
	cfg.Worktree = wt
	c.onStoreError(&cfg, &id)
	a := agent.NewSession(cfg, c.systemPrompt(b.Workspace))
	id = a.ID()
	a.SaveHeader()
	now := time.Now()
	s := newSession(c, a, b, strings.TrimSpace(title), now, now)
	s.learnWindow(c.o.Model, 0)
	c.add(s)
	return s, nil
}

// rebindStored is the binding a stored session resumes with: home, or,
// for a session made in a worktree, the worktree's binding made from
// home, and the worktree to record.
func (c *Controller) rebindStored(info agent.SessionInfo, home Binding) (Binding, *agent.Worktree, error) {
	wt := info.Worktree
	if wt == nil {
		return home, nil, nil
	}
	if c.o.Worktrees.Bind == nil && home.BindWorktree == nil {
		return Binding{}, nil, invalidf("session %q works in the git worktree %s, which this front end cannot open", info.ID, wt.Path)
	}
	if fi, err := os.Stat(wt.Path); err != nil || !fi.IsDir() {
		if errors.Is(err, fs.ErrNotExist) || err == nil {
			return Binding{}, nil, invalidf("session %q worked in the git worktree %s, which no longer exists", info.ID, wt.Path)
		}
		return Binding{}, nil, err
	}
	b, err := c.bind(home, wt.Path)
	if err != nil {
		return Binding{}, nil, err
	}
	return b, wt, nil
}

// bind is the front end's binding of the worktree at root, which knows
// home, where its work goes back to (unless the front end said itself).
func (c *Controller) bind(home Binding, root string) (Binding, error) {
	var b Binding
	var err error
	if home.BindWorktree != nil {
		b, err = home.BindWorktree(root)
	} else {
		b, err = c.o.Worktrees.Bind(home, root)
	}
	if err != nil {
		return Binding{}, fmt.Errorf("binding the worktree %s: %w", root, err)
	}
	if b.Home == nil {
		home.Home, home.BindWorktree = nil, nil
		b.Home = &home
	}
	return b, nil
}

// StoredWorktree is the git worktree of session id, loaded or stored
// (nil: none, or no such session): a front end that binds per session
// binds it there before Open.
func (c *Controller) StoredWorktree(id string) *agent.Worktree {
	if s, ok := c.Get(id); ok {
		return s.Worktree()
	}
	if info, ok := c.stored(id); ok {
		return info.Worktree
	}
	return nil
}

func (c *Controller) release(root string) {
	if c.o.Worktrees.Release != nil {
		c.o.Worktrees.Release(root)
	}
}

// Worktree is the git worktree the session works in (nil: none).
func (s *Session) Worktree() *agent.Worktree { return s.agent.Worktree() }

// worktreeError makes the worktree package's refusals the user's errors.
func worktreeError(err error) error {
	var dirty *worktree.DirtyError
	switch {
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return cancelled(err)
	case errors.As(err, &dirty), errors.Is(err, worktree.ErrNotARepository), errors.Is(err, worktree.ErrUnsafeRepository),
		errors.Is(err, worktree.ErrMergeConflict):
		return &kindError{kind: ErrInvalid, msg: err.Error(), err: err}
	}
	if strings.HasPrefix(err.Error(), "git ") {
		return err
	}
	return &kindError{kind: ErrInvalid, msg: err.Error(), err: err}
}

package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"go.lsp.dev/jsonrpc2"

	"github.com/agent-lsp/agent-lsp/agent"
)

// worktreeInfo is a session's git worktree on the wire: agent/newSession's
// answer and agent/sessions' entries.
type worktreeInfo struct {
	Path   string `json:"path"`
	Branch string `json:"branch"`
	Base   string `json:"base,omitempty"`
}

func worktreeOf(wt *agent.Worktree) *worktreeInfo {
	if wt == nil {
		return nil
	}
	return &worktreeInfo{Path: wt.Path, Branch: wt.Branch, Base: wt.Base}
}

// worktreeRequest reads agent/newSession's worktree: true (a fresh
// name), a name, or absent, null or false (none).
func worktreeRequest(raw json.RawMessage) (want bool, name string, err error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) || bytes.Equal(raw, []byte("false")) {
		return false, "", nil
	}
	if bytes.Equal(raw, []byte("true")) {
		return true, "", nil
	}
	if err := json.Unmarshal(raw, &name); err != nil {
		return false, "", jsonrpc2.Errorf(jsonrpc2.InvalidParams, "invalid params: worktree is true or a name, not %s", raw)
	}
	return true, name, nil
}

// createInWorktree starts a session in a new git worktree of the
// workspace's repository.
func (st *sessionStore) createInWorktree(ctx context.Context, title, name string) (*session, error) {
	ctl, home, err := st.binding()
	if err != nil {
		return nil, err
	}
	st.s.mu.Lock()
	restricted := st.s.settings.restricted
	st.s.mu.Unlock()
	if restricted { // git would run on an untrusted repository, and its worktree would be written
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "invalid params: %s", restrictedReason)
	}
	cs, err := ctl.NewWorktreeSession(ctx, home, title, name)
	if err != nil {
		return nil, controlError(err, "")
	}
	return st.viewOf(cs), nil
}

// The actions of agent/worktree, exactly as docs/protocol.md names them.
const (
	worktreeReview = "review"
	worktreeApply  = "apply"
	worktreeMerge  = "merge"
	worktreeRemove = "remove"
)

type worktreeParams struct {
	sessionRef
	Action string `json:"action"`
	Force  bool   `json:"force"`
}

func (p worktreeParams) validate() error {
	switch p.Action {
	case worktreeReview, worktreeApply, worktreeMerge, worktreeRemove:
		return nil
	}
	return jsonrpc2.Errorf(jsonrpc2.InvalidParams, "invalid params: action is review, apply, merge or remove, not %q", p.Action)
}

// worktreeResult answers agent/worktree; only the fields of the action
// are set.
type worktreeResult struct {
	Action string `json:"action"`
	// review, apply
	Applied  []worktreeFile `json:"applied,omitempty"`
	Rejected []string       `json:"rejected,omitempty"`
	Skipped  []worktreeSkip `json:"skipped,omitempty"`
	// merge, remove
	Branch    string `json:"branch,omitempty"`
	Committed bool   `json:"committed,omitempty"`
	// remove
	Path       string `json:"path,omitempty"`
	BranchKept bool   `json:"branchKept,omitempty"`
}

type worktreeFile struct {
	Path     string `json:"path"`
	Hunks    int    `json:"hunks"`
	Accepted []int  `json:"accepted,omitempty"` // absent: every hunk
}

type worktreeSkip struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// worktree serves agent/worktree: bringing a worktree session's work
// back to the user's checkout (review hunk by hunk, apply all, merge the
// branch) and removing the worktree.
func (s *server) worktree(ctx context.Context, sess *session, p worktreeParams) (worktreeResult, error) {
	ctx = withSession(ctx, sess.id)
	res := worktreeResult{Action: p.Action}
	switch p.Action {
	case worktreeReview, worktreeApply:
		r, err := sess.ctl.ReviewWorktree(ctx, p.Action == worktreeApply)
		if err != nil {
			return worktreeResult{}, controlError(err, sess.id)
		}
		for _, f := range r.Applied {
			res.Applied = append(res.Applied, worktreeFile{Path: f.Path, Hunks: f.Hunks, Accepted: f.Accepted})
		}
		res.Rejected = r.Rejected
		for _, sk := range r.Skipped {
			res.Skipped = append(res.Skipped, worktreeSkip{Path: sk.Path, Reason: sk.Reason})
		}
	case worktreeMerge:
		m, err := sess.ctl.MergeWorktree(ctx)
		if err != nil {
			return worktreeResult{}, controlError(err, sess.id)
		}
		res.Branch, res.Committed = m.Branch, m.Committed
	case worktreeRemove:
		r, err := sess.ctl.RemoveWorktree(ctx, p.Force)
		if err != nil {
			return worktreeResult{}, controlError(err, sess.id)
		}
		res.Path, res.Branch, res.BranchKept = r.Path, r.Branch, r.BranchKept
	default:
		return worktreeResult{}, fmt.Errorf("unknown action %q", p.Action)
	}
	return res, nil
}

// deref is *p, or "" for nil.
func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

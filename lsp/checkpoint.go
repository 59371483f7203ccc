package lsp

import (
	"context"
	"time"

	"go.lsp.dev/jsonrpc2"

	"github.com/agent-lsp/agent-lsp/agent"
)

type checkpointsParams struct {
	sessionRef
}

type checkpointInfo struct {
	CheckpointID string    `json:"checkpointId"`
	Prompt       string    `json:"prompt"`
	CreatedAt    time.Time `json:"createdAt"`
	Files        []string  `json:"files"` // relative to the workspace
}

type checkpointsResult struct {
	Checkpoints []checkpointInfo `json:"checkpoints"`
}

// listCheckpoints serves agent/checkpoints: one per prompt of the
// session, oldest first. A stored session is resumed.
func (s *server) listCheckpoints(_ context.Context, sess *session, _ checkpointsParams) (checkpointsResult, error) {
	res := checkpointsResult{Checkpoints: []checkpointInfo{}}
	for _, c := range sess.agent.Checkpoints() {
		info := checkpointInfo{CheckpointID: c.ID, Prompt: c.Prompt, CreatedAt: c.CreatedAt.UTC(), Files: []string{}}
		for _, f := range c.Files {
			info.Files = append(info.Files, s.rel(f.Path))
		}
		res.Checkpoints = append(res.Checkpoints, info)
	}
	return res, nil
}

type rewindParams struct {
	sessionRef
	CheckpointID         string `json:"checkpointId"`
	RestoreFiles         bool   `json:"restoreFiles"`
	TruncateConversation bool   `json:"truncateConversation"`
}

// validate checks what to rewind before the session is looked up.
func (p rewindParams) validate() error {
	if p.CheckpointID == "" {
		return jsonrpc2.Errorf(jsonrpc2.InvalidParams, "invalid params: checkpointId is required")
	}
	if !p.RestoreFiles && !p.TruncateConversation {
		return jsonrpc2.Errorf(jsonrpc2.InvalidParams, "invalid params: nothing to rewind: set restoreFiles, truncateConversation or both")
	}
	return nil
}

type restoredFile struct {
	Path   string `json:"path"`
	Action string `json:"action"` // restored | deleted | merged
}

type fileConflict struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

type rewindResult struct {
	Restored           []restoredFile `json:"restored"`
	Conflicts          []fileConflict `json:"conflicts"`
	DroppedMessages    int            `json:"droppedMessages"`
	DroppedCheckpoints int            `json:"droppedCheckpoints"`
}

// rewind serves agent/rewind, after any running prompt of the session.
func (s *server) rewind(ctx context.Context, sess *session, p rewindParams) (rewindResult, error) {
	res, err := sess.ctl.Rewind(ctx, p.CheckpointID, agent.RewindOptions{RestoreFiles: p.RestoreFiles,
		TruncateConversation: p.TruncateConversation, Merge: agent.LineMerge})
	if err != nil {
		return rewindResult{}, controlError(err, p.SessionID)
	}
	return s.rewindAnswer(res.Files, res.Conflicts, res.DroppedMessages, res.Dropped), nil
}

func (s *server) rewindAnswer(files []agent.FileRestore, conflicts []agent.FileConflict, messages, checkpoints int) rewindResult {
	s.refreshCodeLenses() // the restored regions are no longer the agent's
	out := rewindResult{Restored: []restoredFile{}, Conflicts: []fileConflict{},
		DroppedMessages: messages, DroppedCheckpoints: checkpoints}
	for _, f := range files {
		out.Restored = append(out.Restored, restoredFile{Path: s.rel(f.Path), Action: f.Action})
	}
	for _, c := range conflicts {
		out.Conflicts = append(out.Conflicts, fileConflict{Path: s.rel(c.Path), Reason: c.Reason})
	}
	return out
}

// sessionByID finds a loaded or stored session by id; a missing id is
// invalid params. inSession routes look their session up with it.
func (s *server) sessionByID(id string) (*session, error) {
	if id == "" {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "invalid params: sessionId is required")
	}
	return s.sessions.lookup(id)
}

// rel names a path relative to the workspace.
func (s *server) rel(path string) string {
	s.mu.Lock()
	ws := s.ws
	s.mu.Unlock()
	if ws == nil {
		return path
	}
	return ws.Rel(path)
}

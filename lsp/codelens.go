package lsp

import (
	"context"
	"slices"
	"strings"

	udiff "github.com/aymanbagabas/go-udiff"
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/tools"
)

// revertTitle is the code lens over each region the agent changed.
const revertTitle = "Revert agent change"

// revertArgs is the argument of agent.revert: a range reverts the agent's
// changes there (the code lens); without one, checkpointId's whole file.
type revertArgs struct {
	URI          string          `json:"uri"`
	SessionID    string          `json:"sessionId,omitempty"`
	CheckpointID string          `json:"checkpointId,omitempty"`
	Range        *protocol.Range `json:"range,omitempty"`
}

// codeLens serves textDocument/codeLens: over each region of an open
// document the agent changed in a session of this daemon (and the user
// has not changed since), "Revert agent change", for editors without a
// plugin.
func (s *server) codeLens(_ context.Context, p protocol.CodeLensParams) ([]protocol.CodeLens, error) {
	lenses := []protocol.CodeLens{}
	key, err := s.overlays.keyOf(string(p.TextDocument.URI))
	if err != nil {
		return lenses, nil
	}
	ov, open := s.overlays.get(key)
	if !open {
		return lenses, nil
	}
	starts := lineStarts(ov.text)
	for _, sess := range s.sessions.all() {
		for _, h := range sess.agentHunks(key, ov.text) {
			rng := protocol.Range{Start: positionOf(ov.text, starts, h.start), End: positionOf(ov.text, starts, h.end)}
			lenses = append(lenses, protocol.CodeLens{Range: rng, Command: &protocol.Command{
				Title: revertTitle, Command: CommandRevert, Arguments: []any{revertArgs{
					URI: string(p.TextDocument.URI), SessionID: sess.id, CheckpointID: h.checkpointID, Range: &rng}},
			}})
		}
	}
	return lenses, nil
}

// lensHunk is a region of the current text the agent changed: [start,
// end) in bytes, and the text it replaced.
type lensHunk struct {
	start, end   int
	restore      string
	checkpointID string // the first checkpoint that changed the file
}

// agentHunks finds the regions of current (the text of the file key) that
// the agent's changes recorded in the session's checkpoints made: the line
// hunks from the file's text before the first checkpoint that changed it
// to the agent's last text, moved to where they are now. A hunk the user
// edited since is left out: reverting it would drop their typing.
//
// The texts are read from the session's content store, and only when the
// file, its checkpoints or the buffer changed since the last request
// (lensCache): a codeLens request over an unchanged 20 MB file hashes the
// buffer, and reads and diffs nothing.
func (sess *session) agentHunks(key, current string) []lensHunk {
	var (
		first *agent.CheckpointFile
		last  agent.CheckpointFile
		cpID  string
	)
	for _, c := range sess.agent.Checkpoints() {
		for _, f := range c.Files {
			if canonicalPath(f.Path) != key {
				continue
			}
			if first == nil {
				first, cpID = &f, c.ID
			}
			last = f
		}
	}
	if first == nil || !last.AgentExists || (first.Existed && first.Before == last.Agent) {
		return nil
	}
	cur := agent.RefOf(current)
	k := lensKey{before: first.Before, agent: last.Agent, current: cur, checkpointID: cpID}
	if hunks, ok := sess.lenses.get(key, k); ok {
		return hunks
	}
	var before string // a file the agent created: one hunk, the whole text, restored to nothing
	if first.Existed {
		var err error
		if before, err = sess.agent.CheckpointText(first.Before); err != nil {
			return nil // no longer stored: nothing to revert to
		}
	}
	agentText := current
	if last.Agent != cur {
		var err error
		if agentText, err = sess.agent.CheckpointText(last.Agent); err != nil {
			return nil
		}
	}
	hunks := diffHunks(before, agentText, current, cpID)
	sess.lenses.put(key, k, hunks)
	return hunks
}

// diffHunks is agentHunks on the texts: before the first checkpoint, the
// agent's last, and the current one. The restore texts are copies: a hunk
// must not keep the whole text before alive.
func diffHunks(before, agentText, current, cpID string) []lensHunk {
	users := udiff.Lines(agentText, current)
	var out []lensHunk
	shift := 0 // how much the agent's edits moved the text after them
	for _, e := range udiff.Lines(before, agentText) {
		a, b := e.Start+shift, e.Start+shift+len(e.New) // in agentText
		shift += len(e.New) - (e.End - e.Start)
		start, end, ok := moveThrough(users, a, b)
		if !ok {
			continue
		}
		out = append(out, lensHunk{start: start, end: end, restore: strings.Clone(before[e.Start:e.End]), checkpointID: cpID})
	}
	return out
}

// moveThrough maps [a, b) of a text to the text edits made of it, or
// reports that an edit touches it.
func moveThrough(edits []udiff.Edit, a, b int) (int, int, bool) {
	delta := 0
	for _, u := range edits {
		empty := u.Start == u.End || a == b
		if (u.Start < b && a < u.End) || (empty && u.Start <= b && a <= u.End) {
			return 0, 0, false
		}
		if u.End <= a {
			delta += len(u.New) - (u.End - u.Start)
		}
	}
	return a + delta, b + delta, true
}

// revert runs agent.revert: the agent's changes in a range of a document
// (in one edit), or a whole file as before a checkpoint.
func (s *server) revert(ctx context.Context, p executeCommandParams) (rewindResult, error) {
	var a revertArgs
	if len(p.Arguments) > 0 {
		if err := decodeParams(p.Arguments[0], &a); err != nil {
			return rewindResult{}, err
		}
	}
	path, err := uriToPath(a.URI)
	if err != nil || (a.Range == nil && a.CheckpointID == "") {
		return rewindResult{}, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "invalid params: agent.revert needs {uri, checkpointId} or {uri, range}")
	}
	var sessions []*session
	if a.SessionID != "" {
		sess, err := s.sessions.lookup(a.SessionID)
		if err != nil {
			return rewindResult{}, err
		}
		sessions = []*session{sess}
	} else {
		sessions = s.sessions.all()
	}
	if a.Range == nil {
		return s.revertFile(ctx, sessions, a.CheckpointID, path)
	}
	return s.revertRange(ctx, sessions, path, *a.Range)
}

// revertFile restores one file as it was before a checkpoint.
func (s *server) revertFile(ctx context.Context, sessions []*session, checkpointID, path string) (rewindResult, error) {
	key := canonicalPath(path)
	for _, sess := range sessions {
		for _, c := range sess.agent.Checkpoints() {
			if c.ID != checkpointID {
				continue
			}
			target := path
			for _, f := range c.Files {
				if canonicalPath(f.Path) == key {
					target = f.Path
				}
			}
			files, conflicts, err := sess.agent.RestoreFile(ctx, checkpointID, target, agent.LineMerge)
			if err != nil {
				return rewindResult{}, jsonrpc2.Errorf(codeRequestFailed, "%v", err)
			}
			return s.rewindAnswer(files, conflicts, 0, 0), nil
		}
	}
	return rewindResult{}, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "invalid params: unknown checkpoint %q", checkpointID)
}

// revertRange puts back the text the agent replaced in the hunks that
// meet rng's lines, in one edit.
func (s *server) revertRange(ctx context.Context, sessions []*session, path string, rng protocol.Range) (rewindResult, error) {
	docs := s.documents()
	if docs == nil {
		return rewindResult{}, errNotInitialized
	}
	cur, err := docs.Read(ctx, path)
	if err != nil {
		return rewindResult{}, jsonrpc2.Errorf(codeRequestFailed, "%v", err)
	}
	key := canonicalPath(path)
	starts := lineStarts(cur.Text)
	var hunks []lensHunk
	for _, sess := range sessions {
		for _, h := range sess.agentHunks(key, cur.Text) {
			first, last := positionOf(cur.Text, starts, h.start).Line, positionOf(cur.Text, starts, h.end).Line
			if first <= rng.End.Line && rng.Start.Line <= last {
				hunks = append(hunks, h)
			}
		}
	}
	if len(hunks) == 0 {
		return rewindResult{}, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "invalid params: no change of the agent left in %s at lines %d-%d",
			docs.ws.Rel(path), rng.Start.Line+1, rng.End.Line+1)
	}
	slices.SortFunc(hunks, func(x, y lensHunk) int { return y.start - x.start })
	text := cur.Text
	for i, h := range hunks {
		if i > 0 && h.end > hunks[i-1].start {
			continue // two sessions' hunks overlap: the later one wins
		}
		text = text[:h.start] + h.restore + text[h.end:]
	}
	if cur.Path == "" {
		cur.Path = path
	}
	if err := docs.Apply(ctx, tools.FileEdit{Tool: "revert", Before: cur, After: text}); err != nil {
		return rewindResult{}, jsonrpc2.Errorf(codeRequestFailed, "%v", err)
	}
	return s.rewindAnswer([]agent.FileRestore{{Path: path, Action: agent.FileRestored}}, nil, 0, 0), nil
}

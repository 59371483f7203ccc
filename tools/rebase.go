package tools

import "fmt"

// Rebase returns the text an edit should leave in a file that now holds
// current: edit.After when the file still holds what the edit was computed
// against, else a three-way merge (base: edit.Before.Text, what the agent
// read; ours: current, what the user made of it since; theirs: edit.After).
// Changes to different lines merge; the user's and the agent's changes to
// the same lines fail the edit with a conflict error for the model, and
// the buffer keeps the user's text. Every front end whose file text can
// move under the agent (editor buffers over LSP, an ACP client's unsaved
// buffers) lands its edits through this one rule.
func Rebase(rel string, edit FileEdit, current Doc) (string, error) {
	switch {
	case current.Exists == edit.Before.Exists && current.Text == edit.Before.Text:
		return edit.After, nil
	case !current.Exists && edit.Before.Exists:
		return "", fmt.Errorf("%w: %s was deleted since you read it; read it again (or create it anew)", ErrEditConflict, rel)
	case current.Exists && !edit.Before.Exists && current.Text != edit.After:
		return "", fmt.Errorf("%w: %s was created by someone else since you looked; read it and redo your edit", ErrEditConflict, rel)
	}
	merged, conflicts := Merge3(edit.Before.Text, current.Text, edit.After)
	if len(conflicts) > 0 {
		return "", ConflictError(rel, "the user", conflicts)
	}
	return merged, nil
}

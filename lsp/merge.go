package lsp

import (
	"fmt"

	"github.com/agent-lsp/agent-lsp/tools"
)

// rebase returns the text an edit should leave in a file that now holds
// current: edit.After when the file still holds what the edit was computed
// against, else a three-way merge (base: edit.Before.Text, what the agent
// read; ours: current, what the user made of it since; theirs: edit.After).
// Changes to different lines merge; the user's and the agent's changes to
// the same lines fail the edit with a conflict error for the model, and
// the buffer keeps the user's text.
func rebase(rel string, edit tools.FileEdit, current tools.Doc) (string, error) {
	switch {
	case current.Exists == edit.Before.Exists && current.Text == edit.Before.Text:
		return edit.After, nil
	case !current.Exists && edit.Before.Exists:
		return "", fmt.Errorf("%w: %s was deleted since you read it; read it again (or create it anew)", tools.ErrEditConflict, rel)
	case current.Exists && !edit.Before.Exists && current.Text != edit.After:
		return "", fmt.Errorf("%w: %s was created by someone else since you looked; read it and redo your edit", tools.ErrEditConflict, rel)
	}
	merged, conflicts := tools.Merge3(edit.Before.Text, current.Text, edit.After)
	if len(conflicts) > 0 {
		return "", tools.ConflictError(rel, "the user", conflicts)
	}
	return merged, nil
}

// versionRace is an applyEdit the editor refused while the buffer moved
// on from the version the edit was computed against: worth one more try.
type versionRace struct {
	sent, now int32
	refusal   error // the editor's refusal, reported if the retry races too
}

func (r *versionRace) Error() string { return r.refusal.Error() }

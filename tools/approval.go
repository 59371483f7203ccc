package tools

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/agent-lsp/agent-lsp/permission"
)

// Approval is what the permission check saw and said for one call: the
// action Describe returned (with its CallID) and the verdict. The
// registry gives it to Run through the context (ApprovalFrom).
type Approval struct {
	Action  permission.Action
	Verdict permission.Verdict
}

type approvalKey struct{}

// WithApproval returns ctx carrying a call's approval.
func WithApproval(ctx context.Context, a Approval) context.Context {
	return context.WithValue(ctx, approvalKey{}, a)
}

// ApprovalFrom returns the approval of the call ctx runs, if any.
func ApprovalFrom(ctx context.Context) (Approval, bool) {
	a, ok := ctx.Value(approvalKey{}).(Approval)
	return a, ok
}

// readForEdit returns the text an edit of abs is computed against. For a
// call whose approval carries an edit proposal of abs, that is the text the
// proposal was computed against — what was shown and approved, and what
// the agent read — whatever the file holds now: the edit is then merged
// with any change made since (Documents.Apply). Otherwise it reads the file.
func readForEdit(ctx context.Context, env *Env, abs string) (Doc, error) {
	if e := approvedEdit(ctx, abs); e != nil {
		return Doc{Path: abs, Text: e.Before, Exists: e.Exists}, nil
	}
	return env.Docs.Read(ctx, abs)
}

// approvedEdit is the edit proposal of abs the call ctx runs was approved
// with, if any.
func approvedEdit(ctx context.Context, abs string) *permission.EditProposal {
	if ap, ok := ApprovalFrom(ctx); ok && ap.Action.Edit != nil && ap.Action.Edit.File == abs {
		return ap.Action.Edit
	}
	return nil
}

// reviewed is a planned edit after its review.
type reviewed struct {
	after string // the text to write: every hunk, or only the accepted ones
	// partial is set when only some hunks were accepted; note then says
	// which landed and which did not.
	partial bool
	note    string // for the model, after the tool's summary; feedback included
}

// output is a tool's result text: summary ("edited a.go: …") when every
// hunk landed, else what verb ("edited") did only in part; then the note.
func (r reviewed) output(verb, rel, summary string) string {
	out := summary
	if r.partial {
		out = fmt.Sprintf("%s %s only in part: %s", verb, rel, r.note)
	} else if r.note != "" {
		out += "\n" + r.note
	}
	return out
}

// reviewedAfter applies a review to a planned edit: when the reviewer
// accepted only some hunks of the approved proposal, the text with just
// those, and a note for the model naming the hunks that landed and those
// that did not. The note carries the reviewer's feedback, verbatim.
func reviewedAfter(ctx context.Context, before Doc, after string) (reviewed, error) {
	ap, ok := ApprovalFrom(ctx)
	if !ok || ap.Verdict.Review == nil || ap.Action.Edit == nil {
		return reviewed{after: after}, nil
	}
	e, r := ap.Action.Edit, ap.Verdict.Review
	if e.File != before.Path || e.Before != before.Text || e.After != after {
		return reviewed{}, fmt.Errorf("the reviewed change of %s is not the one this call makes", before.Path)
	}
	res := reviewed{after: after}
	var notes []string
	if r.Hunks != nil {
		var err error
		if res.after, err = ApplyHunks(e.Before, e.Hunks, r.Hunks); err != nil {
			return reviewed{}, fmt.Errorf("apply the accepted hunks: %w", err)
		}
		res.partial = true
		notes = append(notes, hunksNote(e.Hunks, r.Hunks))
	}
	if r.Feedback != "" {
		notes = append(notes, permission.FeedbackPrefix+r.Feedback)
	}
	res.note = strings.Join(notes, "\n")
	return res, nil
}

// hunksNote says which hunks of a partly accepted edit landed and which
// did not, with the lines each one covered in the text the model read.
func hunksNote(hunks []permission.Hunk, accepted []int) string {
	var took, left []string
	for _, h := range hunks {
		if slices.Contains(accepted, h.ID) {
			took = append(took, strconv.Itoa(h.ID))
		} else {
			left = append(left, fmt.Sprintf("hunk %d (%s)", h.ID, hunkLines(h)))
		}
	}
	return fmt.Sprintf("the user reviewed your change hunk by hunk: applied %s of %d; rejected and NOT applied: %s. "+
		"The file holds only the applied hunks; read it again before changing it further.",
		plural("hunk", took), len(hunks), strings.Join(left, ", "))
}

// plural is "hunk 1", "hunks 1, 3" or "no hunk".
func plural(word string, ids []string) string {
	switch len(ids) {
	case 0:
		return "no " + word
	case 1:
		return word + " " + ids[0]
	}
	return word + "s " + strings.Join(ids, ", ")
}

// hunkLines names the lines a hunk covers in the text before the edit.
func hunkLines(h permission.Hunk) string {
	switch {
	case h.EndLine < h.StartLine:
		return fmt.Sprintf("new lines before line %d", h.StartLine)
	case h.EndLine == h.StartLine:
		return fmt.Sprintf("line %d", h.StartLine)
	}
	return fmt.Sprintf("lines %d–%d", h.StartLine, h.EndLine)
}

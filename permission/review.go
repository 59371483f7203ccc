package permission

import "context"

// Hunk is one changed region of a proposed edit: a run of consecutive
// changed lines of the file's text before the edit.
type Hunk struct {
	// ID names the hunk in a review answer: 1, 2, … in file order. The
	// same before and after texts always give the same hunks and ids.
	ID int
	// StartLine and EndLine are the 1-based, inclusive lines of the text
	// before the edit that the hunk replaces. A pure insertion replaces no
	// line: EndLine is StartLine-1 and the text goes before StartLine.
	StartLine, EndLine int
	OldText, NewText   string // whole lines, line breaks included
	// Diff is the hunk as a unified diff hunk (an @@ header, a few lines
	// of context), for display.
	Diff string
}

// EditProposal is the change an edit action proposes, for a reviewer who
// may take only some of its hunks, and for the tool that applies what was
// accepted.
type EditProposal struct {
	// File is the absolute path of the file (Action.Path is relative).
	File string
	// Before is the text the proposal was computed against (what the
	// agent read; "" for a new file), After the text with every hunk.
	Before, After string
	// Exists says whether the file existed when the proposal was made.
	Exists bool
	Hunks  []Hunk
}

// Review is a reviewer's answer on an edit proposal.
type Review struct {
	// Decision is about the edit as a whole: Deny rejects it, AllowOnce
	// (or AllowSession, when offered) lets Accepted land.
	Decision Decision
	// Accepted lists the ids of the hunks to apply when only some are;
	// nil means every hunk. An allowed review accepting no hunk is a Deny.
	Accepted []int
	// Feedback is what the reviewer wrote for the model, verbatim ("" for
	// none). It reaches the model whatever the decision.
	Feedback string
}

// Reviewer is an Approver that can review an edit hunk by hunk. The policy
// asks it, instead of Approve, about actions with an Edit proposal; it may
// still show a yes/no question (answering for every hunk) when whoever it
// asks cannot review hunks.
type Reviewer interface {
	Approver
	Review(ctx context.Context, a Action, offerSession bool) (Review, error)
}

// Reviewed is a review's outcome as the policy's verdict carries it.
type Reviewed struct {
	// Hunks, when not nil, are the ids of the only hunks of the edit that
	// were accepted, in file order; nil: every hunk.
	Hunks []int
	// Feedback is the reviewer's note for the model, verbatim ("" for none).
	Feedback string
}

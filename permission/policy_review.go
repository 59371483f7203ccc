package permission

import (
	"context"
	"slices"
)

// FeedbackPrefix introduces a reviewer's feedback in what the model reads.
const FeedbackPrefix = "User feedback: "

// review asks a Reviewer about an edit and turns its answer into a verdict:
// a Deny, or an allowed review that accepts no hunk, is a denial carrying
// the feedback; otherwise the accepted hunks (nil when all) and feedback.
func (p *Policy) review(ctx context.Context, rv Reviewer, a Action, offer bool) (Verdict, error) {
	r, err := rv.Review(ctx, a, offer)
	if err != nil {
		if ctx.Err() != nil {
			return Verdict{}, ctx.Err()
		}
		return Verdict{Reason: "approval failed: " + err.Error()}, nil
	}
	accepted := acceptedHunks(r.Accepted, a.Edit.Hunks)
	if r.Decision == Deny || (accepted != nil && len(accepted) == 0) {
		reason := ReasonDenied
		if r.Feedback != "" {
			reason += "\n" + FeedbackPrefix + r.Feedback
		}
		return Verdict{Reason: reason, Review: &Reviewed{Hunks: []int{}, Feedback: r.Feedback}}, nil
	}
	// "Allow for this session" remembers the whole edit tool, so only an
	// answer that took every hunk may grant it.
	if _, always := r.Decision.Always(); (r.Decision == AllowSession || always) && offer && accepted == nil {
		p.saveAlways(a, r.Decision)
		p.mu.Lock()
		p.granted[grantKey(a)] = true
		p.mu.Unlock()
	}
	return Verdict{Allowed: true, Review: &Reviewed{Hunks: accepted, Feedback: r.Feedback}}, nil
}

// acceptedHunks keeps the ids of hunks that exist, once each, in file
// order; nil when the answer names every hunk (or names none: nil).
func acceptedHunks(ids []int, hunks []Hunk) []int {
	if ids == nil {
		return nil
	}
	out := []int{}
	for _, h := range hunks {
		if slices.Contains(ids, h.ID) {
			out = append(out, h.ID)
		}
	}
	if len(out) == len(hunks) {
		return nil
	}
	return out
}

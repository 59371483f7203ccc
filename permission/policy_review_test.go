package permission

import (
	"context"
	"slices"
	"testing"
)

// reviewer answers reviews with a fixed answer and counts what it is asked.
type reviewer struct {
	answer  Review
	reviews int
	asks    int
	offered bool
}

func (r *reviewer) Approve(context.Context, Action, bool) (Decision, error) {
	r.asks++
	return AllowOnce, nil
}

func (r *reviewer) Review(_ context.Context, _ Action, offer bool) (Review, error) {
	r.reviews++
	r.offered = offer
	return r.answer, nil
}

func editAction(risk Risk) Action {
	return Action{Tool: "edit_file", Scope: "edit_file", Risk: risk, WorkspaceEdit: true,
		Edit: &EditProposal{Hunks: []Hunk{{ID: 1}, {ID: 2}, {ID: 3}}}}
}

func TestPolicyReview(t *testing.T) {
	tests := []struct {
		name        string
		answer      Review
		wantAllowed bool
		wantHunks   []int
		wantReason  string
	}{
		{"accept", Review{Decision: AllowOnce}, true, nil, ""},
		{"partial", Review{Decision: AllowOnce, Accepted: []int{3, 1, 9}, Feedback: "keep the old name"}, true, []int{1, 3}, ""},
		{"partial naming every hunk is all", Review{Decision: AllowOnce, Accepted: []int{1, 2, 3}}, true, nil, ""},
		{"partial with none is a denial", Review{Decision: AllowOnce, Accepted: []int{}, Feedback: "no"}, false, []int{}, "denied by the user\nUser feedback: no"},
		{"reject with feedback", Review{Decision: Deny, Feedback: "keep the old name"}, false, []int{}, "denied by the user\nUser feedback: keep the old name"},
		{"reject", Review{Decision: Deny}, false, []int{}, ReasonDenied},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &reviewer{answer: tt.answer}
			v, err := NewPolicy(r).Check(t.Context(), editAction(Medium))
			if err != nil {
				t.Fatal(err)
			}
			if r.reviews != 1 || r.asks != 0 {
				t.Fatalf("reviews %d, approvals %d; want one review", r.reviews, r.asks)
			}
			if v.Allowed != tt.wantAllowed || v.Reason != tt.wantReason || v.Review == nil ||
				!slices.Equal(v.Review.Hunks, tt.wantHunks) || (v.Review.Hunks == nil) != (tt.wantHunks == nil) ||
				v.Review.Feedback != tt.answer.Feedback {
				t.Errorf("verdict = %+v (review %+v)", v, v.Review)
			}
		})
	}
}

func TestPolicyReviewRules(t *testing.T) {
	t.Run("actions without hunks are approved as before", func(t *testing.T) {
		r := &reviewer{}
		if v, _ := NewPolicy(r).Check(t.Context(), Action{Tool: "run_bash", Risk: Medium}); !v.Allowed || r.asks != 1 || r.reviews != 0 {
			t.Errorf("verdict %+v, asks %d, reviews %d", v, r.asks, r.reviews)
		}
	})
	t.Run("auto-edit skips the review", func(t *testing.T) {
		r := &reviewer{}
		p := NewPolicy(r)
		p.SetAutoAllowWorkspaceEdits(true)
		if v, _ := p.Check(t.Context(), editAction(Medium)); !v.Allowed || r.reviews != 0 || v.Review != nil {
			t.Errorf("verdict %+v, reviews %d", v, r.reviews)
		}
	})
	t.Run("HIGH is reviewed even in auto-edit, without the session offer", func(t *testing.T) {
		r := &reviewer{answer: Review{Decision: AllowSession}}
		p := NewPolicy(r)
		p.SetAutoAllowWorkspaceEdits(true)
		if v, _ := p.Check(t.Context(), editAction(High)); !v.Allowed || r.reviews != 1 || r.offered {
			t.Errorf("verdict %+v, reviews %d, offered %v", v, r.reviews, r.offered)
		}
		p.SetAutoAllowWorkspaceEdits(false)
		p.Check(t.Context(), editAction(High))
		if r.reviews != 2 {
			t.Error("an AllowSession answer to a HIGH review was remembered")
		}
	})
	t.Run("only a whole accept grants the session", func(t *testing.T) {
		r := &reviewer{answer: Review{Decision: AllowSession, Accepted: []int{1}}}
		p := NewPolicy(r)
		p.Check(t.Context(), editAction(Medium))
		p.Check(t.Context(), editAction(Medium))
		if r.reviews != 2 {
			t.Errorf("reviews = %d: a partial answer granted the session", r.reviews)
		}
		r.answer = Review{Decision: AllowSession}
		p.Check(t.Context(), editAction(Medium))
		p.Check(t.Context(), editAction(Medium))
		if r.reviews != 3 {
			t.Errorf("reviews = %d: a whole accept for the session did not stick", r.reviews)
		}
	})
}

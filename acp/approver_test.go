package acp

import (
	"context"
	"errors"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agent-lsp/agent-lsp/permission"
)

// askPeer answers session/request_permission with outcome and records the
// question; the other methods are not used by the approver.
type askPeer struct {
	peer
	got     sdk.RequestPermissionRequest
	outcome sdk.RequestPermissionOutcome
	err     error
	updates []sdk.SessionNotification
}

func (p *askPeer) SessionUpdate(_ context.Context, n sdk.SessionNotification) error {
	p.updates = append(p.updates, n)
	return nil
}

func (p *askPeer) RequestPermission(_ context.Context, r sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error) {
	p.got = r
	return sdk.RequestPermissionResponse{Outcome: p.outcome}, p.err
}

func pick(id string) sdk.RequestPermissionOutcome {
	return sdk.RequestPermissionOutcome{Selected: &sdk.RequestPermissionOutcomeSelected{Outcome: "selected", OptionId: sdk.PermissionOptionId(id)}}
}

func TestApprover(t *testing.T) {
	cancelled := sdk.RequestPermissionOutcome{Cancelled: &sdk.RequestPermissionOutcomeCancelled{Outcome: "cancelled"}}
	for _, tc := range []struct {
		name    string
		risk    permission.Risk
		offer   bool
		outcome sdk.RequestPermissionOutcome
		err     error
		options int
		want    permission.Decision
	}{
		{"allow once", permission.Medium, true, pick(optAllowOnce), nil, 3, permission.AllowOnce},
		{"allow always", permission.Medium, true, pick(optAllowAlways), nil, 3, permission.AllowSession},
		{"reject", permission.Medium, true, pick(optRejectOnce), nil, 3, permission.Deny},
		{"high risk: no allow always", permission.High, false, pick(optAllowOnce), nil, 2, permission.AllowOnce},
		{"high risk: a forged allow always is once", permission.High, false, pick(optAllowAlways), nil, 2, permission.AllowOnce},
		{"cancelled is deny", permission.Medium, true, cancelled, nil, 3, permission.Deny},
		{"unknown option is deny", permission.Low, true, pick("sure"), nil, 3, permission.Deny},
		{"failure is deny", permission.Low, true, pick(optAllowOnce), errors.New("client gone"), 3, permission.Deny},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := &askPeer{outcome: tc.outcome, err: tc.err}
			a := &approver{s: &session{id: "s1", peer: p}}
			d, err := a.Approve(context.Background(), permission.Action{Tool: "run_bash", Summary: "run: make", Command: "make",
				Risk: tc.risk, CallID: "call_1", Reasons: []string{"builds"}}, tc.offer)
			if d != tc.want || (err != nil) != (tc.err != nil) {
				t.Fatalf("decision %v, %v; want %v", d, err, tc.want)
			}
			if len(p.got.Options) != tc.options || p.got.ToolCall.ToolCallId != "call_1" || p.got.SessionId != "s1" {
				t.Fatalf("asked %+v", p.got)
			}
			if k := p.got.ToolCall.Kind; k == nil || *k != sdk.ToolKindExecute {
				t.Fatalf("kind %v", k)
			}
			// The question names the risk; once answered, the call's
			// title is the command alone (a client keeps the last title).
			if title := p.got.ToolCall.Title; title == nil || *title != "make ["+tc.risk.String()+" risk]" {
				t.Errorf("question title %v", title)
			}
			if n := len(p.updates); n != 1 || p.updates[0].Update.ToolCallUpdate == nil || *p.updates[0].Update.ToolCallUpdate.Title != "make" {
				t.Errorf("after the answer: %+v", p.updates)
			}
		})
	}
}

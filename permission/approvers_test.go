package permission

import (
	"context"
	"testing"
)

func TestAutoApprover(t *testing.T) {
	ctx := context.Background()
	if d, _ := (AutoApprover{}).Approve(ctx, Action{}, true); d != AllowSession {
		t.Fatalf("offered: %v", d)
	}
	if d, _ := (AutoApprover{}).Approve(ctx, Action{}, false); d != AllowOnce {
		t.Fatalf("not offered: %v", d)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if d, err := (AutoApprover{}).Approve(cancelled, Action{}, true); d != Deny || err == nil {
		t.Fatalf("cancelled: %v, %v", d, err)
	}
}

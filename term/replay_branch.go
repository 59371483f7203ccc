package term

import (
	"context"
	"iter"
	"strings"
	"sync"

	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/provider/connect"
)

// branchingReplay answers from a recording, and, from the first request
// that carries a denied tool call on, from a second recording made with
// that call denied (--replay-denied), at the same exchange: a replayed
// session (the offline demo) then says what the user's choice made true,
// not that a denied edit was made. Both recordings share their exchanges
// up to the denial.
type branchingReplay struct {
	approved, denied provider.Provider

	mu       sync.Mutex
	calls    int  // requests answered so far
	switched bool // a denial was seen: denied answers from now on
}

func newBranchingReplay(approved provider.Provider, deniedPath string) (*branchingReplay, error) {
	denied, err := provider.NewReplay(deniedPath, connect.Dialects()...)
	if err != nil {
		return nil, err
	}
	return &branchingReplay{approved: approved, denied: denied}, nil
}

// Stream implements provider.Provider.
func (b *branchingReplay) Stream(ctx context.Context, req provider.Request) iter.Seq[provider.Event] {
	b.mu.Lock()
	if !b.switched && lastResultsDenied(req.Messages) {
		b.switched = true
		for range b.calls { // the denied recording's shared exchanges are behind us
			for range b.denied.Stream(ctx, req) {
			}
		}
	}
	b.calls++
	p := b.approved
	if b.switched {
		p = b.denied
	}
	b.mu.Unlock()
	return p.Stream(ctx, req)
}

// lastResultsDenied reports whether a tool result after the last
// assistant turn is a denial.
func lastResultsDenied(msgs []provider.Message) bool {
	for i := len(msgs) - 1; i >= 0 && msgs[i].Role == provider.RoleTool; i-- {
		if msgs[i].IsError && strings.HasPrefix(msgs[i].Text, "denied") {
			return true
		}
	}
	return false
}

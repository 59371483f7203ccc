package acp

import (
	"context"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"
	"go.uber.org/zap"

	"github.com/agent-lsp/agent-lsp/tools"
	"github.com/agent-lsp/agent-lsp/tools/sandbox"
)

// deadTerminalPeer is a client whose terminals never start what they are
// given (a terminal on another machine that hangs): they run until killed.
type deadTerminalPeer struct {
	peer
	mu      sync.Mutex
	created []sdk.CreateTerminalRequest
	calls   []string
}

func (p *deadTerminalPeer) record(m string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.calls = append(p.calls, m)
}

func (p *deadTerminalPeer) CreateTerminal(_ context.Context, r sdk.CreateTerminalRequest) (sdk.CreateTerminalResponse, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.created = append(p.created, r)
	return sdk.CreateTerminalResponse{TerminalId: "t1"}, nil
}

func (p *deadTerminalPeer) WaitForTerminalExit(ctx context.Context, _ sdk.WaitForTerminalExitRequest) (sdk.WaitForTerminalExitResponse, error) {
	<-ctx.Done()
	return sdk.WaitForTerminalExitResponse{}, ctx.Err()
}

func (p *deadTerminalPeer) KillTerminal(context.Context, sdk.KillTerminalRequest) (sdk.KillTerminalResponse, error) {
	p.record("kill")
	return sdk.KillTerminalResponse{}, nil
}

func (p *deadTerminalPeer) ReleaseTerminal(context.Context, sdk.ReleaseTerminalRequest) (sdk.ReleaseTerminalResponse, error) {
	p.record("release")
	return sdk.ReleaseTerminalResponse{}, nil
}

func (p *deadTerminalPeer) TerminalOutput(context.Context, sdk.TerminalOutputRequest) (sdk.TerminalOutputResponse, error) {
	return sdk.TerminalOutputResponse{}, nil
}

// A stub that never connects is given up on after attachWait: the
// terminal is killed and released, and the agent runs the command itself,
// in its sandbox, saying so.
func TestTerminalStubThatNeverConnectsFallsBack(t *testing.T) {
	root := t.TempDir()
	box, err := sandbox.New(sandbox.Settings{}, []string{root})
	if err != nil {
		t.Fatal(err)
	}
	defer box.Close()
	p := &deadTerminalPeer{}
	r := &terminalRunner{s: &session{id: "s1", peer: p, log: zap.NewNop()}, local: tools.NewProcessRunner(box),
		attachWait: 100 * time.Millisecond}
	out, err := r.RunCommand(context.Background(), tools.CommandRequest{Command: "echo fell-back", Dir: root, Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.Output, "fell-back") || out.ExitCode != 0 {
		t.Fatalf("the command did not run: %+v", out)
	}
	if !strings.Contains(out.Note, "did not connect within 100ms") || out.Sandboxed != box.Status().Active ||
		(out.Sandboxed && !strings.Contains(out.Note, "in its sandbox")) {
		t.Errorf("outcome %+v: want the fallback said, sandboxed as the agent's runner is", out)
	}
	self, _ := os.Executable()
	if len(p.created) != 1 || p.created[0].Command != self || p.created[0].Args[0] != sandbox.AttachArg {
		t.Errorf("terminal/create %+v: want this binary as the stub", p.created)
	}
	if !slices.Equal(p.calls, []string{"kill", "release"}) {
		t.Errorf("terminal calls %v, want kill then release", p.calls)
	}
}

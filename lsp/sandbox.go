package lsp

import (
	"fmt"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/agent-lsp/agent-lsp/agent/world"
	"github.com/agent-lsp/agent-lsp/tools"
	"github.com/agent-lsp/agent-lsp/tools/sandbox"
)

// sandboxOptions is initializationOptions.sandbox (docs/protocol.md,
// "Sandbox").
type sandboxOptions struct {
	Mode         string   `json:"mode"`         // workspace-write (default) | read-only | off
	Network      string   `json:"network"`      // local (default) | allow | deny
	WritableDirs []string `json:"writableDirs"` // extra writable directories
	AutoAllow    bool     `json:"autoAllow"`    // sandboxed commands below HIGH run without a popup
	HostPorts    []int    `json:"hostPorts"`    // host loopback ports reachable under network local
	AllowSockets []string `json:"allowSockets"` // unix sockets outside the workspace commands may connect to
	// ProcessLimit and MemoryLimitMB bound each command (0: the defaults).
	ProcessLimit  int `json:"processLimit"`
	MemoryLimitMB int `json:"memoryLimitMB"`
	// ForceUnavailable behaves as on a kernel without Landlock (the
	// fallback path, for tests and for trying it out).
	ForceUnavailable bool `json:"forceUnavailable"`
}

// sandboxState is the daemon's command sandbox, set at initialize.
type sandboxState struct {
	box       *sandbox.Sandbox // nil before initialize or when it could not be set up
	runner    *tools.ProcessRunner
	autoAllow bool // the session opted in and the sandbox is active
	status    sandbox.Status
	settings  sandbox.Settings // what a worktree session's sandbox is made of (worktree_bind.go)
}

// startSandbox sets up the sandbox for the workspace. Bad settings fail
// initialize; a sandbox the machine cannot provide does not (the user is
// told at initialized, commands run under approvals only).
func (s *server) startSandbox(o *sandboxOptions, protectedFiles []string, ws *tools.Workspace) (sandboxState, error) {
	if o == nil {
		o = &sandboxOptions{}
	}
	mode, err := sandbox.ParseMode(o.Mode)
	if err != nil {
		return sandboxState{}, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "initializationOptions.sandbox: %v", err)
	}
	network, err := sandbox.ParseNetwork(o.Network)
	if err != nil {
		return sandboxState{}, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "initializationOptions.sandbox: %v", err)
	}
	settings := sandbox.Settings{
		Mode: mode, Network: network, WritableDirs: o.WritableDirs,
		ForceUnavailable: o.ForceUnavailable, HostPorts: o.HostPorts, AllowSockets: o.AllowSockets,
		ProcessLimit: o.ProcessLimit, MemoryLimitMB: o.MemoryLimitMB, ProtectedFiles: protectedFiles,
	}
	if err := settings.Validate(); err != nil {
		return sandboxState{}, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "initializationOptions.sandbox: %v", err)
	}
	box, err := world.OpenSandbox(settings, s.store, ws, s.log) // the sessions hidden from commands
	if err != nil {
		return sandboxState{}, fmt.Errorf("sandbox: %w", err)
	}
	// Not waited for: initialize says "checking" until the check, started
	// once initialized (reportSandbox), has ended. Auto-allowing is only
	// ever applied to a command the sandbox is known to contain
	// (Action.Sandboxed waits for the check), so it may be on meanwhile.
	st := box.Current()
	return sandboxState{box: box, runner: tools.NewProcessRunner(box), status: st, settings: settings,
		autoAllow: o.AutoAllow && (st.Active || st.Checking)}, nil
}

// reportSandbox starts the check of the sandbox in the background (after
// the initialize reply: it starts a confined process) and, once it has
// ended, tells the user, once, when the sandbox asked
// for is not there: commands then run under approvals only.
func (s *server) reportSandbox() {
	s.mu.Lock()
	box := s.sandbox.box
	s.mu.Unlock()
	if box == nil {
		return
	}
	box.OnKnown(func(st sandbox.Status) { // agent/world.OpenSandbox logs it
		if st.Mode != sandbox.ModeOff && !st.Active && st.Mode != "" {
			s.notify("window/showMessage", protocol.ShowMessageParams{
				Type: protocol.MessageTypeWarning, Message: "agent-lsp: " + st.Summary()})
		}
	})
	box.Start()
}

// closeSandbox removes the sandbox's private temp dir.
func (s *server) closeSandbox() {
	s.mu.Lock()
	box := s.sandbox.box
	s.sandbox = sandboxState{}
	s.mu.Unlock()
	if box == nil {
		return
	}
	if err := box.Close(); err != nil {
		s.log.Warn("sandbox", zap.Error(err))
	}
}

package sandbox

import (
	"fmt"
	"strings"
)

// Mode is what the sandbox lets a command write.
type Mode string

const (
	// ModeWorkspaceWrite: the workspace, the private temp dir and the
	// configured extra dirs are writable (the default where supported).
	ModeWorkspaceWrite Mode = "workspace-write"
	// ModeReadOnly: only the private temp dir is writable.
	ModeReadOnly Mode = "read-only"
	// ModeOff: no sandbox; approvals only.
	ModeOff Mode = "off"
)

// Network is what the sandbox lets a command reach.
type Network string

const (
	// NetworkLocal: loopback only (the default): a project's own test
	// servers work, nothing leaves the machine.
	NetworkLocal Network = "local"
	// NetworkAllow: the host's network, unfiltered.
	NetworkAllow Network = "allow"
	// NetworkDeny: no network at all, not even loopback.
	NetworkDeny Network = "deny"
)

// ParseMode reads a mode name; "" is the default, workspace-write.
func ParseMode(s string) (Mode, error) {
	switch m := Mode(strings.ToLower(strings.TrimSpace(s))); m {
	case "":
		return ModeWorkspaceWrite, nil
	case ModeWorkspaceWrite, ModeReadOnly, ModeOff:
		return m, nil
	}
	return "", fmt.Errorf("sandbox mode %q: want workspace-write, read-only or off", s)
}

// ParseNetwork reads a network setting; "" is the default, local.
func ParseNetwork(s string) (Network, error) {
	switch n := Network(strings.ToLower(strings.TrimSpace(s))); n {
	case "":
		return NetworkLocal, nil
	case NetworkLocal, NetworkAllow, NetworkDeny:
		return n, nil
	}
	return "", fmt.Errorf("sandbox network %q: want local, allow or deny", s)
}

// Settings configure a Sandbox.
type Settings struct {
	Mode    Mode
	Network Network
	// WritableDirs are extra directories commands may write (absolute,
	// or relative to the first workspace root; ~/ is the home directory).
	WritableDirs []string
	// HiddenPaths are extra paths commands may not read (the agent's own
	// state directory, for one), on top of the built-in secret stores.
	HiddenPaths []string
	// Home is the user's home directory ("" : os.UserHomeDir).
	Home string
	// ForceUnavailable makes the sandbox report itself unavailable, as on
	// a kernel without Landlock: the fallback path, for tests.
	ForceUnavailable bool
	// NoNamespaces makes the sandbox work without user namespaces, as on
	// a kernel that forbids them unprivileged: Landlock alone, for tests.
	NoNamespaces bool
}

package sandbox

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/agent-lsp/agent-lsp/permission"
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
	// ProtectedFiles are the user's additions to the protected workspace
	// files (permission.NewProtectedFiles): commands may not change or
	// create them, like the built-in ones.
	ProtectedFiles []string
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
	// HostPorts are TCP ports of the host's loopback that commands may
	// reach under network local (a database or dev server the user runs);
	// nothing else on the host is reachable.
	HostPorts []int
	// AllowSockets are unix sockets outside the workspace and the private
	// temp dir that commands may connect to (absolute, or ~/...).
	AllowSockets []string
	// ProcessLimit is how many processes one command may run at once
	// (0: DefaultProcessLimit).
	ProcessLimit int
	// MemoryLimitMB is how much memory (MiB of data: heap and anonymous
	// mappings) each process of a command may allocate (0:
	// DefaultMemoryLimitMB).
	MemoryLimitMB int
}

// The limits a command runs under unless the settings say otherwise.
const (
	DefaultProcessLimit  = 1024
	DefaultMemoryLimitMB = 3072
	// MinProcessLimit: the kernel keeps the first 300 process numbers of
	// a PID namespace for its first processes, so a PID namespace cannot
	// be capped below that.
	MinProcessLimit = 300
)

// Validate checks the settings a user gave (ports in range, limits not
// negative); New calls it.
func (st Settings) Validate() error {
	for _, p := range st.HostPorts {
		if p < 1 || p > 65535 {
			return fmt.Errorf("sandbox hostPorts: %d is not a TCP port (1-65535)", p)
		}
	}
	for _, s := range st.AllowSockets {
		if s == "" || !(filepath.IsAbs(s) || s == "~" || strings.HasPrefix(s, "~/")) {
			return fmt.Errorf("sandbox allowSockets: %q: want an absolute path or ~/...", s)
		}
	}
	if st.ProcessLimit != 0 && st.ProcessLimit < MinProcessLimit {
		return fmt.Errorf("sandbox processLimit: %d is below the minimum, %d", st.ProcessLimit, MinProcessLimit)
	}
	if _, err := permission.NewProtectedFiles(st.ProtectedFiles); err != nil {
		return fmt.Errorf("sandbox protectedFiles: %w", err)
	}
	if st.MemoryLimitMB < 0 {
		return fmt.Errorf("sandbox memoryLimitMB: %d is negative", st.MemoryLimitMB)
	}
	return nil
}

package sandbox

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/agent-lsp/agent-lsp/permission"
)

// Status is what the sandbox holds on this machine, for the user and for
// the risk rules.
type Status struct {
	// Active: commands run confined (Landlock applied).
	Active  bool
	Mode    Mode
	Network Network
	// ABI is the kernel's Landlock ABI version, 0 when there is none.
	ABI int
	// Namespaces: commands also run in their own user, mount, PID and
	// (network local/deny) network namespaces.
	Namespaces bool
	// Unavailable says why a sandbox that was asked for is not active;
	// "" when it is, or when the mode is off.
	Unavailable string
	// Limits are the guarantees weaker than documented on this machine
	// (no namespaces: TCP filtered by port only, ...).
	Limits []string
	// TmpDir is the private temp dir commands get as TMPDIR.
	TmpDir string
	// CacheDir holds the build tools' caches commands get (GOCACHE,
	// npm_config_cache, PIP_CACHE_DIR, ...): the workspace's own.
	CacheDir string
	// Checking: what this machine supports is not known yet (the check
	// runs at the first command, or in the background; see Current).
	// Active is false meanwhile.
	Checking bool
}

// ContainsFS reports whether commands' writes are confined and the secret
// stores hidden.
func (s Status) ContainsFS() bool { return s.Active }

// ContainsNet reports whether nothing a command sends leaves the machine.
// (TCP only, when there are no namespaces: UDP is then not filtered, so
// this is false.)
func (s Status) ContainsNet() bool {
	return s.Active && s.Network != NetworkAllow && s.Namespaces
}

// Summary is one line for a banner or a log.
func (s Status) Summary() string {
	switch {
	case s.Mode == ModeOff:
		return "sandbox off: commands run unconfined, approvals only"
	case s.Checking:
		return fmt.Sprintf("sandbox %s, network %s (Landlock ABI %d): checking what this machine supports (before the first command runs)", s.Mode, s.Network, s.ABI)
	case !s.Active:
		return "sandbox unavailable: " + s.Unavailable + "; commands run unconfined, approvals only"
	}
	line := fmt.Sprintf("sandbox %s, network %s (Landlock ABI %d", s.Mode, s.Network, s.ABI)
	if s.Namespaces {
		line += ", namespaces)"
	} else {
		line += ", no namespaces)"
	}
	if len(s.Limits) > 0 {
		line += "; " + strings.Join(s.Limits, "; ")
	}
	return line
}

// Sandbox confines the commands of one session (one daemon or chat
// process). Safe for concurrent use once New returns.
type Sandbox struct {
	settings   Settings
	roots      []string // workspace roots, resolved
	writable   []string // resolved: roots (workspace-write) and extra dirs
	hidden     []string // not readable
	protected  []string // readable, not writable
	files      []string // the protected workspace files' names (workspace_files.go)
	home       string   // the user's, for git's global config and ~/ paths
	trips      trips    // protected paths commands created (see tripwire)
	tmpDir     string
	cacheDir   string // the build tools' caches (caches.go)
	shell      string
	namespaces bool
	status     Status
	// sockets: unix sockets outside the roots and the temp dir that
	// commands may connect to (Settings.AllowSockets, ~ expanded).
	sockets []string
	sup     supervisors
	probe   probeState
	reads   readRules // the read grants, kept between commands (Linux)
}

// New prepares the sandbox for commands in the workspace roots: it
// creates the private temp dir and asks the kernel for Landlock; whether
// a confined command really starts here is checked later (probeState),
// before the first command. An unsupported sandbox is not an error:
// Status says why, and Command runs commands unconfined. The error is
// for bad settings or a temp dir that cannot be created.
func New(st Settings, roots []string) (*Sandbox, error) {
	if st.Mode == "" {
		st.Mode = ModeWorkspaceWrite
	}
	if st.Network == "" {
		st.Network = NetworkLocal
	}
	if _, err := ParseMode(string(st.Mode)); err != nil {
		return nil, err
	}
	if _, err := ParseNetwork(string(st.Network)); err != nil {
		return nil, err
	}
	if err := st.Validate(); err != nil {
		return nil, err
	}
	if st.ProcessLimit == 0 {
		st.ProcessLimit = DefaultProcessLimit
	}
	if st.MemoryLimitMB == 0 {
		st.MemoryLimitMB = DefaultMemoryLimitMB
	}
	if len(roots) == 0 {
		return nil, errors.New("sandbox: no workspace root")
	}
	home := st.Home
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	s := &Sandbox{settings: st, home: home, status: Status{Mode: st.Mode, Network: st.Network}}
	s.sup.init()
	for _, r := range roots {
		s.roots = append(s.roots, resolve(r))
	}
	if st.Mode == ModeOff {
		s.probe.init(s.status)
		s.finishProbe()
		return s, nil
	}
	if st.Mode == ModeWorkspaceWrite {
		s.writable = append(s.writable, s.roots...)
	}
	for _, d := range st.WritableDirs {
		s.writable = append(s.writable, resolve(expandDir(d, home, s.roots[0])))
	}
	s.hidden = hiddenPaths(home, st.HiddenPaths)
	s.reads.hidden = s.hidden
	s.protected = writeProtected(home)
	files, err := permission.NewProtectedFiles(st.ProtectedFiles)
	if err != nil {
		return nil, err
	}
	s.files = files.ProtectedNames()
	for _, a := range st.AllowSockets {
		s.sockets = append(s.sockets, expandDir(a, home, s.roots[0]))
	}

	tmp, err := os.MkdirTemp("", "agent-lsp-sandbox-")
	if err != nil {
		return nil, fmt.Errorf("sandbox: private temp dir: %w", err)
	}
	if err := os.Chmod(tmp, 0o700); err != nil {
		_ = os.RemoveAll(tmp)
		return nil, fmt.Errorf("sandbox: private temp dir: %w", err)
	}
	s.tmpDir = resolve(tmp)
	s.status.TmpDir = s.tmpDir
	if s.cacheDir = sandboxCacheDir(home, s.roots[0]); s.cacheDir == "" {
		s.cacheDir = filepath.Join(s.tmpDir, "cache")
	}
	s.status.CacheDir = s.cacheDir
	needsLaunch := s.checkKernel()
	s.probe.init(s.status)
	if !needsLaunch {
		s.finishProbe()
	}
	return s, nil
}

// Roots are the workspace roots as the sandbox resolved them.
func (s *Sandbox) Roots() []string { return append([]string(nil), s.roots...) }

// Close ends the supervision of commands' sockets and removes the private
// temp dir and everything commands left there.
func (s *Sandbox) Close() error {
	s.probe.stop()
	s.sup.stop()
	s.reads.close()
	if s.tmpDir == "" {
		return nil
	}
	if err := os.RemoveAll(s.tmpDir); err != nil {
		return fmt.Errorf("sandbox: removing the private temp dir: %w", err)
	}
	return nil
}

// expandDir makes an extra writable dir absolute.
func expandDir(d, home, base string) string {
	switch {
	case d == "~":
		return home
	case strings.HasPrefix(d, "~/"):
		return filepath.Join(home, d[2:])
	case filepath.IsAbs(d):
		return d
	}
	return filepath.Join(base, d)
}

// resolve cleans a path and follows its symlinks when it exists: Landlock
// rules apply to the files themselves.
func resolve(p string) string {
	p = filepath.Clean(p)
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

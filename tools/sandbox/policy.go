package sandbox

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// policyEnv carries the launch policy from the daemon to the launcher,
// which removes it before it execs the shell.
const policyEnv = "AGENT_LSP_SANDBOX_POLICY"

// launchPolicy is what the launcher applies: computed by the daemon for
// each command (the directory walks see the files as they are now).
type launchPolicy struct {
	// The Landlock grants: the daemon builds the ruleset from them and
	// hands the launcher its descriptor (RulesetFD), so the short-lived
	// launcher does no file walking nor rule building.
	// (The read grants, read + execute around the hidden paths, and
	// the directories only listable above them, are readRules', added
	// to the ruleset from descriptors held between commands.)
	Write    []grant  `json:"-"` // full access
	Devices  []string `json:"-"` // character devices: read, write, ioctl
	DenyTCP  bool     `json:"-"` // Landlock: no TCP connect (no network namespace)
	DenyBind bool     `json:"-"` // Landlock: no TCP bind either
	// Landlock: TCP connect allowed to these ports under DenyTCP
	// (sandbox.hostPorts without namespaces: any address, by port).
	ConnectPorts []int `json:"-"`

	// Tripwires are protected paths that cannot be mounted (missing, or
	// symlinks): the daemon watches them while the command runs.
	Tripwires []tripPath `json:"-"`

	RulesetFD    int      // the ruleset's descriptor in the launcher
	RulesetFlags uint32   // for landlock_restrict_self
	HandledFS    uint64   // the file rights the ruleset handles (for the rules the launcher adds)
	MapIDs       string   // "uid:gid" an ordinary user's launcher maps into its own user namespace; "": mapped by exec (root)
	MaxProcs     uint64   // RLIMIT_NPROC in the command's user namespace; 0: unchanged
	MaxData      uint64   // RLIMIT_DATA in bytes for each process; 0: unchanged
	Pinned       []string // bind-mounted onto themselves first: not renamed, removed nor replaced (mount namespace only)
	ReadOnly     []string // bind-mounted read-only (mount namespace only)
	Loopback     bool     // bring lo up in the new network namespace
	Namespace    bool     // running in new user+mount namespaces
	Shell        string   // absolute path of bash

	// The unix socket supervision (sockets_linux.go): the seccomp filter
	// the launcher installs (hex, seccomp_filter_linux.go), the channel
	// it hands the filter's listener and the host port listeners to the
	// daemon on, and the host loopback ports to listen on in the
	// command's network namespace (namespaces only).
	Seccomp   string
	ChanFD    int
	HostPorts []int
}

// policyMagic heads the encoded policy: the launcher refuses anything
// else (a daemon and a launcher of different versions).
const policyMagic = "agent-lsp-sandbox-v1"

// encode writes the launch part of the policy as lines of key=value, a
// format the launcher reads without a JSON decoder (the C launcher runs
// before the Go runtime exists). A path with a newline cannot be encoded.
func (p launchPolicy) encode() (string, error) {
	lines := []string{policyMagic, "shell=" + p.Shell, "fd=" + strconv.Itoa(p.RulesetFD),
		"flags=" + strconv.FormatUint(uint64(p.RulesetFlags), 10), "ns=" + flag01(p.Namespace), "lo=" + flag01(p.Loopback),
		"handled=" + strconv.FormatUint(p.HandledFS, 10), "map=" + p.MapIDs,
		"nproc=" + strconv.FormatUint(p.MaxProcs, 10), "data=" + strconv.FormatUint(p.MaxData, 10)}
	for _, r := range p.Pinned {
		lines = append(lines, "pin="+r)
	}
	for _, r := range p.ReadOnly {
		lines = append(lines, "ro="+r)
	}
	if p.Seccomp != "" {
		lines = append(lines, "seccomp="+p.Seccomp, "chan="+strconv.Itoa(p.ChanFD))
	}
	for _, port := range p.HostPorts {
		lines = append(lines, "port="+strconv.Itoa(port))
	}
	for _, l := range lines {
		if strings.ContainsAny(l, "\n\x00") {
			return "", fmt.Errorf("sandbox policy: a path with a newline cannot be passed to the launcher: %q", l)
		}
	}
	return strings.Join(lines, "\n"), nil
}

// decodePolicy reads what encode wrote.
func decodePolicy(raw string) (launchPolicy, error) {
	lines := strings.Split(raw, "\n")
	if lines[0] != policyMagic {
		return launchPolicy{}, fmt.Errorf("policy: not a %s policy", policyMagic)
	}
	var p launchPolicy
	for _, l := range lines[1:] {
		k, v, _ := strings.Cut(l, "=")
		var err error
		switch k {
		case "shell":
			p.Shell = v
		case "fd":
			p.RulesetFD, err = strconv.Atoi(v)
		case "flags":
			var f uint64
			f, err = strconv.ParseUint(v, 10, 32)
			p.RulesetFlags = uint32(f)
		case "ns":
			p.Namespace = v == "1"
		case "handled":
			p.HandledFS, err = strconv.ParseUint(v, 10, 64)
		case "map":
			p.MapIDs = v
		case "nproc":
			p.MaxProcs, err = strconv.ParseUint(v, 10, 64)
		case "data":
			p.MaxData, err = strconv.ParseUint(v, 10, 64)
		case "lo":
			p.Loopback = v == "1"
		case "pin":
			p.Pinned = append(p.Pinned, v)
		case "ro":
			p.ReadOnly = append(p.ReadOnly, v)
		case "seccomp":
			p.Seccomp = v
		case "chan":
			p.ChanFD, err = strconv.Atoi(v)
		case "port":
			var port int
			port, err = strconv.Atoi(v)
			p.HostPorts = append(p.HostPorts, port)
		default:
			err = fmt.Errorf("unknown key %q", k)
		}
		if err != nil {
			return launchPolicy{}, fmt.Errorf("policy: %s: %w", l, err)
		}
	}
	return p, nil
}

func flag01(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

// devices a command may use whatever the mode.
var devices = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty", "/dev/ptmx"}

// deviceDirs are device directories a command may use: terminals, and
// POSIX shared memory (under namespaces the launcher mounts a private
// /dev/shm over the host's, and grants it itself).
var deviceDirs = []string{"/dev/pts", "/dev/shm"}

// buildPolicy computes the launch policy for one command.
func (s *Sandbox) buildPolicy() (launchPolicy, error) {
	p := launchPolicy{Shell: s.shell, Namespace: s.namespaces}
	if s.namespaces {
		// RLIMIT_NPROC counts the processes of the user in the command's
		// own user namespace; without one it would count every process of
		// the user on the machine, so it is left alone there.
		p.MaxProcs = uint64(s.settings.ProcessLimit)
	}
	p.MaxData = uint64(s.settings.MemoryLimitMB) << 20

	exclude := append(append([]string(nil), s.hidden...), s.protected...)
	guard := guardGit(s.writable, s.home, s.files)
	pinned, readOnly, watched := gitMounts(guard, s.writable)
	p.Tripwires = watched
	if s.namespaces {
		p.Pinned, p.ReadOnly = pinned, readOnly
	} else {
		// Without a mount namespace the only way to keep them read-only
		// is to leave them out of the grants; the directories above them
		// are then split, so new entries cannot be created right in them
		// (a repository's root, its git dir: see the package doc and
		// docs/protocol.md). The protected paths that do not exist (a
		// workspace that is no repository has no .git) are watched
		// instead, as under namespaces: leaving them out would split a
		// workspace root that holds no git metadata at all.
		exclude = append(exclude, readOnly...)
	}
	for _, dir := range s.writable {
		g, _ := cover(dir, exclude)
		p.Write = append(p.Write, g...)
	}
	for _, d := range []string{s.tmpDir, s.cacheDir} {
		if d != "" {
			g, _ := cover(d, nil)
			p.Write = append(p.Write, g...)
		}
	}
	for _, d := range devices {
		if exists(d) {
			p.Devices = append(p.Devices, d)
		}
	}
	for _, d := range deviceDirs {
		if d == "/dev/shm" && s.namespaces {
			continue // the launcher's private one
		}
		if exists(d) {
			p.Write = append(p.Write, grant{Path: d, Dir: true})
		}
	}
	switch s.settings.Network {
	case NetworkLocal:
		p.Loopback = s.namespaces
		p.DenyTCP = !s.namespaces
		if p.DenyTCP {
			p.ConnectPorts = s.settings.HostPorts
		}
	case NetworkDeny:
		p.DenyTCP, p.DenyBind = !s.namespaces, !s.namespaces
	}
	return p, nil
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

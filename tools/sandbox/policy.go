package sandbox

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
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
	Read     []grant  `json:"-"` // read + execute
	Listable []string `json:"-"` // directories listable only (ancestors of hidden paths)
	Write    []grant  `json:"-"` // full access
	Devices  []string `json:"-"` // character devices: read, write, ioctl
	DenyTCP  bool     `json:"-"` // Landlock: no TCP connect (no network namespace)
	DenyBind bool     `json:"-"` // Landlock: no TCP bind either

	RulesetFD    int      `json:"rulesetFD"`    // the ruleset's descriptor in the launcher
	RulesetFlags uint32   `json:"rulesetFlags"` // for landlock_restrict_self
	ReadOnly     []string `json:"readOnly"`     // bind-mounted read-only (mount namespace only)
	Loopback     bool     `json:"loopback"`     // bring lo up in the new network namespace
	Namespace    bool     `json:"namespace"`    // running in new user+mount namespaces
	Shell        string   `json:"shell"`        // absolute path of bash
}

// devices a command may use whatever the mode.
var devices = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty", "/dev/ptmx"}

// deviceDirs are device directories a command may use (terminals, POSIX
// shared memory).
var deviceDirs = []string{"/dev/pts", "/dev/shm"}

// buildPolicy computes the launch policy for one command.
func (s *Sandbox) buildPolicy() (launchPolicy, error) {
	p := launchPolicy{Shell: s.shell, Namespace: s.namespaces}
	p.Read, p.Listable = cover("/", s.hidden)

	exclude := append(append([]string(nil), s.hidden...), s.protected...)
	var gitProtected []string
	for _, root := range s.writable {
		for _, name := range []string{"hooks", "config"} {
			if path := filepath.Join(root, ".git", name); exists(path) {
				gitProtected = append(gitProtected, path)
			}
		}
	}
	if s.namespaces {
		p.ReadOnly = gitProtected
	} else {
		// Without a mount namespace the only way to keep them read-only
		// is to leave them out of the grants; the directories above them
		// are then split, so new entries right in a workspace root cannot
		// be created (see the package doc and docs/protocol.md).
		exclude = append(exclude, gitProtected...)
	}
	for _, dir := range s.writable {
		g, _ := cover(dir, exclude)
		p.Write = append(p.Write, g...)
	}
	g, _ := cover(s.tmpDir, nil)
	p.Write = append(p.Write, g...)
	for _, d := range devices {
		if exists(d) {
			p.Devices = append(p.Devices, d)
		}
	}
	for _, d := range deviceDirs {
		if exists(d) {
			p.Write = append(p.Write, grant{Path: d, Dir: true})
		}
	}
	switch s.settings.Network {
	case NetworkLocal:
		p.Loopback = s.namespaces
		p.DenyTCP = !s.namespaces
	case NetworkDeny:
		p.DenyTCP, p.DenyBind = !s.namespaces, !s.namespaces
	}
	return p, nil
}

func (p launchPolicy) encode() (string, error) {
	b, err := json.Marshal(p)
	if err != nil {
		return "", fmt.Errorf("sandbox policy: %w", err)
	}
	return string(b), nil
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

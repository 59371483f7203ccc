package sandbox

import (
	"github.com/landlock-lsm/go-landlock/landlock"
	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// Access rights, by what a grant is for.
const (
	rightsRead     = ll.AccessFSExecute | ll.AccessFSReadFile | ll.AccessFSReadDir
	rightsReadFile = ll.AccessFSExecute | ll.AccessFSReadFile
	rightsFile     = ll.AccessFSExecute | ll.AccessFSReadFile | ll.AccessFSWriteFile | ll.AccessFSTruncate
	rightsDevice   = ll.AccessFSReadFile | ll.AccessFSWriteFile | ll.AccessFSTruncate | ll.AccessFSIoctlDev
	rightsAll      = (1 << 16) - 1 // every right ABI 7 knows, for write grants on directories
)

// rulesFor is the Landlock configuration and rules of a policy, but
// the read grants (readRules).
func rulesFor(p launchPolicy) (landlock.Config, []landlock.Rule) {
	cfg := landlock.Config{HandledAccessFS: landlock.V7.HandledAccessFS, Scoped: landlock.V7.Scoped}
	switch {
	case p.DenyBind:
		cfg.HandledAccessNet = ll.AccessNetConnectTCP | ll.AccessNetBindTCP
	case p.DenyTCP:
		cfg.HandledAccessNet = ll.AccessNetConnectTCP
	}
	var rules []landlock.Rule // the read grants are readRules' (prepare)
	for _, g := range p.Write {
		r := landlock.AccessFSSet(rightsFile)
		if g.Dir {
			r = rightsAll &^ ll.AccessFSIoctlDev
		}
		rules = append(rules, landlock.PathAccess(r, g.Path).IgnoreIfMissing())
	}
	for _, port := range p.ConnectPorts {
		rules = append(rules, landlock.ConnectTCP(uint16(port)))
	}
	if len(p.Devices) > 0 {
		rules = append(rules, landlock.PathAccess(rightsDevice, p.Devices...).IgnoreIfMissing())
	}
	return cfg, rules
}

// handledFS is the set of file rights the Landlock ABI handles: go-landlock's
// best-effort mode drops the others, and a rule may only name handled
// rights.
func handledFS(abi int) uint64 {
	all := uint64(landlock.V7.HandledAccessFS)
	switch {
	case abi >= 5:
		return all
	case abi >= 3:
		return all &^ ll.AccessFSIoctlDev
	case abi == 2:
		return all &^ (ll.AccessFSIoctlDev | ll.AccessFSTruncate)
	}
	return all &^ (ll.AccessFSIoctlDev | ll.AccessFSTruncate | ll.AccessFSRefer)
}

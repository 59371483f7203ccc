package tools

import (
	"os"
	"strings"
	"sync"

	"github.com/agent-lsp/agent-lsp/tools/procenv"
)

// The daemon's own credentials (model API keys, the variables its MCP
// entries expand) are read once and then taken out of the process
// environment, into a private vault. Every child the daemon starts, by any
// path (run_bash, MCP servers, git, a library that forks), inherits the
// process environment; a variable that is no longer there cannot leak. A
// process reading /proc/<pid>/environ sees the start-up block instead,
// which Go's environment does not own: HideEnv wipes the hidden values
// there too (procenv.Wipe), and PR_SET_DUMPABLE=0 (procenv.Protect, at the
// binary's start) keeps the user's other processes out of it altogether.
//
// Code that needs a hidden value reads it through Getenv / LookupEnv.

var vault struct {
	sync.Mutex
	values map[string]string // hidden name -> value (absent: was unset)
	hidden map[string]bool   // every name HideEnv was asked to hide
	redact *redactor         // built from values on first use; nil: stale
}

// neverHidden are variables a child needs to work at all and that hold no
// secret; an MCP entry that expands ${HOME} must not take HOME from every
// command.
var neverHidden = map[string]bool{
	"PATH": true, "HOME": true, "USER": true, "LOGNAME": true, "SHELL": true,
	"LANG": true, "LANGUAGE": true, "TERM": true, "TMPDIR": true, "PWD": true,
	"TZ": true, "COLORTERM": true,
}

// hideable reports whether HideEnv may take name out of the environment.
func hideable(name string) bool {
	if name == "" || strings.ContainsAny(name, "=\x00") {
		return false
	}
	up := strings.ToUpper(name)
	return !neverHidden[up] && !strings.HasPrefix(up, "LC_") && !strings.HasPrefix(up, "XDG_")
}

// HideEnv moves each named variable from the process environment into the
// vault: Getenv still returns it, children never see it. Names that are
// unset are remembered as hidden all the same (a later Setenv of that name
// is still kept from children). Basic non-secret variables (PATH, HOME,
// LANG, XDG_*, ...) are left alone. Safe for concurrent use.
//
// The values are also wiped from the process's start-up environment block
// (what /proc/<pid>/environ shows). It returns the error of that wipe:
// the variables are hidden from children and Go's environment either way.
func HideEnv(names ...string) error {
	vault.Lock()
	defer vault.Unlock()
	if vault.hidden == nil {
		vault.values, vault.hidden = map[string]string{}, map[string]bool{}
	}
	var wipe []string
	for _, n := range names {
		if !hideable(n) {
			continue
		}
		vault.hidden[n] = true
		if v, ok := os.LookupEnv(n); ok {
			// A copy, so the value never depends on whether Go's
			// environment strings point into the start-up block that the
			// wipe below zeroes (today the runtime copies them).
			vault.values[n] = strings.Clone(v)
			vault.redact = nil
			_ = os.Unsetenv(n)
			wipe = append(wipe, n)
		}
	}
	return procenv.Wipe(wipe)
}

// HideSecretLookingEnv hides every variable whose name or value looks
// like a credential (IsSecretEnv); its error is HideEnv's.
func HideSecretLookingEnv() error {
	var names []string
	for _, kv := range os.Environ() {
		name, value, _ := strings.Cut(kv, "=")
		if IsSecretEnv(name, value) {
			names = append(names, name)
		}
	}
	return HideEnv(names...)
}

// LookupEnv is os.LookupEnv that also sees hidden variables.
func LookupEnv(name string) (string, bool) {
	vault.Lock()
	v, ok := vault.values[name]
	vault.Unlock()
	if ok {
		return v, true
	}
	return os.LookupEnv(name)
}

// Getenv is os.Getenv that also sees hidden variables.
func Getenv(name string) string {
	v, _ := LookupEnv(name)
	return v
}

// isHiddenEnvName reports whether HideEnv was asked to hide name.
func isHiddenEnvName(name string) bool {
	vault.Lock()
	defer vault.Unlock()
	return vault.hidden[name]
}

// HiddenEnvValues returns the values of the hidden variables that are
// set, for scrubbing them from text that leaves the process (logs,
// sessions, recordings).
func HiddenEnvValues() []string {
	vault.Lock()
	defer vault.Unlock()
	out := make([]string, 0, len(vault.values))
	for _, v := range vault.values {
		if v != "" {
			out = append(out, v)
		}
	}
	return out
}

// IsChildSafeEnvName reports whether a variable may be passed to a child
// process: neither secret-looking nor hidden.
func IsChildSafeEnvName(name string) bool {
	return !IsSecretEnvName(name) && !isHiddenEnvName(name)
}

// IsChildSafeEnv reports whether a variable may be passed to a child
// process: its name neither secret-looking nor hidden, its value not a
// credential (IsSecretValue).
func IsChildSafeEnv(name, value string) bool {
	return IsChildSafeEnvName(name) && !IsSecretValue(value)
}

// ChildEnviron is the environment for a child process: the process
// environment without secret-looking or hidden variables.
func ChildEnviron() []string { return scrubEnv(os.Environ()) }

package sandbox

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/agent-lsp/agent-lsp/permission"
)

// denialPhrases are how programs report a refused file access (EACCES,
// EPERM, EROFS), as strerror and a few runtimes print them.
var denialPhrases = []string{"Permission denied", "Operation not permitted", "Read-only file system", "EACCES", "EPERM", "EROFS"}

// networkPhrases are how programs report a network they cannot reach.
var networkPhrases = []string{
	"Network is unreachable", "ENETUNREACH", "Could not resolve host", "Temporary failure in name resolution",
	"Name or service not known", "No address associated with hostname", "getaddrinfo", "Cannot assign requested address",
	"connect: Permission denied", "connect: permission denied",
}

// connectFailure finds curl's refusal, which names the address but not
// the cause ("Failed to connect to 192.0.2.1 port 80 after 0 ms:
// Couldn't connect to server"): to a non-loopback address, from a
// sandbox without the host's network, the cause is the sandbox.
var connectFailure = permission.LazyRegexp(`Failed to connect to (\S+) port [0-9]+`)

// isLoopbackHost reports whether a host as a tool prints it is this
// machine's loopback.
func isLoopbackHost(h string) bool {
	h = strings.Trim(h, "[]")
	return h == "localhost" || h == "::1" || strings.HasPrefix(h, "127.")
}

// pathToken finds absolute paths in a message: after a quote, a space, a
// colon or the line start.
var pathToken = permission.LazyRegexp(`(?:^|[\s'"` + "`" + `:(=])(/[^\s'"` + "`" + `:,;)]+)`)

// relativeBefore finds "path: Permission denied" (bash, cat, ...; tar:
// "path: Cannot open: Permission denied").
var relativeBefore = permission.LazyRegexp(`(?:^|\s)([^\s'"‘’:]+): (?:Cannot [a-z]+: )?(?:Permission denied|Operation not permitted|Read-only file system|Device or resource busy)`)

// quoted finds 'path' (coreutils: cannot touch 'x': ...; Python: ...: 'x';
// coreutils in a UTF-8 locale quotes ‘x’).
var quoted = permission.LazyRegexp(`['‘]([^'‘’\n]+)['’]`)

// deniedPath finds a whole absolute path before the refusal, whatever it
// holds (commas, spaces, colons): "bash: line 1: /a,b/x: Permission
// denied", "mkdir: cannot create directory ‘/a b/x’: Permission denied".
var deniedPath = permission.LazyRegexp(`(?:^|[\s'"‘(=])(/[^\n'"‘’]*?)['’]?: (?:Permission denied|Operation not permitted|Read-only file system|Device or resource busy)`)

// gitReadOnly starts the explanation of a write to git metadata (hooks,
// config, info, a submodule's or a worktree's git dir, a core.hooksPath
// target, ...) or of a move of a git dir (see gitGuard).
const gitReadOnly = "git metadata is read-only in the sandbox: "

// protectedFileReadOnly starts the explanation of a write to a protected
// workspace file (workspace_files.go).
const protectedFileReadOnly = "protected workspace file, run later by an editor, git or a shell, is read-only in the sandbox (the file tools can write it, asking the user): "

// otherProcess finds a /proc entry of a process by number.
var otherProcess = permission.LazyRegexp(`/proc/[0-9]+/[^\s'":]*`)

// HintUnsandboxed is how the model can ask to leave the sandbox.
const HintUnsandboxed = `if the command needs this, call run_bash again with "sandbox": false (the user is asked every time)`

// Explain reads a failed command's output for signs the sandbox stopped
// it and returns lines the model reads ("blocked by the sandbox: write
// outside the workspace: /home/u/.bashrc"); "" when nothing points at
// the sandbox. Where the output names no path it says what the sandbox
// allows instead of guessing.
func (s *Sandbox) Explain(output string) string {
	// Read after a sandboxed command ran, so after the check (Command
	// waited for it): s.status is final.
	if !s.status.Active {
		return ""
	}
	var lines []string
	seen := map[string]bool{}
	add := func(l string) {
		if !seen[l] {
			seen[l] = true
			lines = append(lines, l)
		}
	}
	unexplained, network := false, false
	git := guardGit(s.writable, s.home, s.files)
	for _, p := range append(s.trips.take(), tripsIn(output)...) {
		what := gitReadOnly
		if git.protectedFileAt(p) {
			what = protectedFileReadOnly
		}
		add("blocked by the sandbox: " + what + p + " (the command changed it: it was put back as it was and the command stopped)")
	}
	for _, line := range strings.Split(output, "\n") {
		if why := s.refusedLoopback(line) + s.refusedAbstract(line); why != "" {
			add(why)
			continue
		}
		// A refused connect is the network's only without namespaces (Landlock's
		// TCP rules), and never on a unix socket (refusedSockets says why).
		connectDenied := strings.Contains(strings.ToLower(line), "connect: permission denied")
		if s.status.Network != NetworkAllow && containsAny(line, networkPhrases) &&
			!(connectDenied && (s.status.Namespaces || strings.Contains(line, "unix"))) {
			network = true
			continue
		}
		if m := connectFailure().FindStringSubmatch(line); m != nil && s.status.Network != NetworkAllow && !isLoopbackHost(m[1]) {
			network = true
			continue
		}
		if m := otherProcess().FindString(line); m != "" && strings.Contains(line, "No such file or directory") {
			add("blocked by the sandbox: access to another process: " + m + " (processes outside the sandbox are not visible to it)")
			continue
		}
		// EBUSY is what replacing a read-only bind mount (.git/config by
		// git's rename of config.lock) or moving a pinned git dir gives;
		// elsewhere it is not ours.
		busy := strings.Contains(line, "Device or resource busy")
		if !busy && !containsAny(line, denialPhrases) {
			continue
		}
		paths := s.pathsIn(line)
		found := false
		for _, p := range paths {
			if why := s.classify(p, git); why != "" && (!busy || strings.HasPrefix(why, gitReadOnly) || strings.HasPrefix(why, protectedFileReadOnly)) {
				add("blocked by the sandbox: " + why)
				found = true
				break
			}
		}
		if !found && len(paths) == 0 && !busy {
			unexplained = true
		}
	}
	for _, l := range s.refusedSockets(output, lines) {
		add(l)
	}
	if network {
		switch {
		case !s.status.Namespaces:
			add("blocked by the sandbox: network access outside this machine refused; without network namespaces here every TCP connection is refused, loopback too" + s.hostPortsAllowed())
		case s.status.Network == NetworkDeny:
			add("blocked by the sandbox: network access (sandbox network: deny)")
		default:
			add("blocked by the sandbox: network access outside this machine (sandbox network: local, loopback only)")
		}
	}
	for _, l := range s.explainLimits(output) {
		add(l)
	}
	if unexplained && len(lines) == 0 {
		add("the command may have been blocked by the sandbox: " + s.allows())
	}
	if len(lines) == 0 {
		return ""
	}
	return strings.Join(append(lines, HintUnsandboxed), "\n")
}

// pathsIn returns the paths a refusal message names: absolute ones, and
// relative ones where the message has the "path: Permission denied" or
// quoted form (taken relative to the first workspace root, the commands'
// working directory: a command that changed directory may be misplaced).
//
// Whole paths (before the refusal, or quoted) come first, and a shorter
// token that is only their cut-off start is left out: a path with a comma
// or a space is judged as itself. Each path is judged where it really is:
// a link in the workspace to a file outside is a write outside.
func (s *Sandbox) pathsIn(line string) []string {
	var out []string
	add := func(p string) {
		p = filepath.Clean(p)
		for _, q := range out {
			if q == p || strings.HasPrefix(q, p) {
				return
			}
		}
		out = append(out, p)
	}
	for _, m := range deniedPath().FindAllStringSubmatch(line, -1) {
		add(m[1])
	}
	for _, m := range quoted().FindAllStringSubmatch(line, -1) {
		if strings.HasPrefix(m[1], "/") {
			add(m[1])
		}
	}
	for _, m := range pathToken().FindAllStringSubmatch(line, -1) {
		add(m[1])
	}
	for _, re := range []*regexp.Regexp{relativeBefore(), quoted()} {
		for _, m := range re.FindAllStringSubmatch(line, -1) {
			if p := m[1]; !strings.HasPrefix(p, "/") && p != "line" && len(s.roots) > 0 {
				add(filepath.Join(s.roots[0], p))
			}
		}
	}
	for i, p := range out {
		out[i] = resolveExisting(p)
	}
	return out
}

// resolveExisting follows the symlinks of the longest part of p that
// exists and keeps the rest as written (a file the command failed to
// create does not exist; the link to its directory may).
func resolveExisting(p string) string {
	rest := ""
	for dir := p; ; dir = filepath.Dir(dir) {
		if r, err := filepath.EvalSymlinks(dir); err == nil {
			return filepath.Join(r, rest)
		}
		if dir == filepath.Dir(dir) {
			return p
		}
		rest = filepath.Join(filepath.Base(dir), rest)
	}
}

// classify says why the sandbox refuses path, "" when it would not; git
// is what guards the git metadata now.
func (s *Sandbox) classify(path string, git gitGuard) string {
	if isSocket(path) && !within(s.tmpDir, path) && !s.inRoots(path) {
		return unixSocketRefused(path)
	}
	if strings.HasPrefix(path, "/proc/") && !strings.HasPrefix(path, "/proc/self/") {
		return "access to another process: " + path + " (processes outside the sandbox are not visible to it)"
	}
	for _, h := range s.hidden {
		if within(h, path) {
			return "read of a secret store the sandbox hides: " + path
		}
	}
	for _, p := range s.protected {
		if within(p, path) {
			return "write to a protected start-up or configuration file: " + path
		}
	}
	if git.protectedFileAt(path) {
		return protectedFileReadOnly + path
	}
	for _, p := range git.readOnly {
		if within(p, path) {
			return gitReadOnly + path
		}
	}
	for _, p := range git.pinned {
		if p == path {
			return gitReadOnly + path + " (it cannot be moved, removed or replaced)"
		}
		if !s.namespaces && isUnder(p, path) {
			// Landlock alone: the git dir is split around its protected
			// entries, so nothing new can be made right in it.
			return gitReadOnly + path + " (without user namespaces nothing new can be created in the git dir)"
		}
	}
	if within(s.tmpDir, path) || strings.HasPrefix(path, "/dev/") {
		return ""
	}
	for _, w := range s.writable {
		if within(w, path) {
			if dir := filepath.Dir(path); s.splitAround(dir, git) {
				return "new entries cannot be created in " + dir + ", which holds protected start-up, git or secret files (files already there stay writable): " + path
			}
			return ""
		}
	}
	for _, root := range s.roots {
		if within(root, path) && s.status.Mode == ModeReadOnly {
			return "write in the workspace (sandbox mode read-only): " + path
		}
	}
	return "write outside the workspace: " + path
}

func (s *Sandbox) inRoots(path string) bool {
	for _, root := range s.roots {
		if within(root, path) {
			return true
		}
	}
	return false
}

// splitAround reports whether dir lies above a protected or hidden path:
// the write grants are split around those (Landlock can only grant), so
// dir itself gets no grant to create entries in.
func (s *Sandbox) splitAround(dir string, git gitGuard) bool {
	var kept []string
	kept = append(append(kept, s.protected...), s.hidden...)
	if !s.namespaces { // else they are read-only mounts, not split grants
		kept = append(kept, git.readOnly...)
	}
	for _, p := range kept {
		if p != dir && within(dir, p) {
			return true
		}
	}
	return false
}

// allows says what the sandbox lets a command do, for a refusal whose
// path the output does not name.
func (s *Sandbox) allows() string {
	w := append(append([]string(nil), s.writable...), s.tmpDir+" (TMPDIR)")
	return fmt.Sprintf("it lets commands write only to %s, keeps git metadata (hooks, config, info, submodules' and worktrees' git dirs) and the files editors, git and shells run later (.vscode/, .envrc, hook managers' configs, .mcp.json, ...) read-only and hides the secret stores (~/.ssh, ~/.aws, ~/.gnupg, ...)", strings.Join(w, ", "))
}

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

package permission

import (
	"path"
	"strings"
)

// target is a path a command deletes, writes or changes, resolved against
// the working directory. Paths are compared as text: the detector never
// touches the file system, so symlinks are not followed.
type target struct {
	path     string // absolute and clean; "" when relative to an unknown directory or unknown
	rel      string // clean relative path when the cwd is the (unnamed) workspace
	known    bool
	dynamic  bool // unknown and unquoted: may expand to several paths or options
	children bool // some entries under path, not path itself (a glob, find's results)
	all      bool // with children: every entry (a bare * glob, find without filters)
	shown    string
}

// cwdMode says what the detector knows about the working directory.
type cwdMode int

const (
	cwdKnown     cwdMode = iota // cwd holds it
	cwdWorkspace                // no workspace root was given: relative paths are taken to be the workspace
	cwdAnywhere                 // after `cd $X`: relative paths could be anywhere
)

// criticalDirs are directories whose recursive removal wrecks the machine.
// Home and its ancestors are added per call.
var criticalDirs = map[string]bool{
	"/": true, "/bin": true, "/boot": true, "/dev": true, "/etc": true, "/lib": true,
	"/lib32": true, "/lib64": true, "/libx32": true, "/sbin": true, "/usr": true,
	"/usr/bin": true, "/usr/lib": true, "/usr/local": true, "/usr/sbin": true, "/usr/share": true,
	"/var": true, "/var/lib": true, "/home": true, "/root": true, "/opt": true, "/proc": true,
	"/sys": true, "/srv": true, "/snap": true, "/Users": true, "/System": true,
	"/Library": true, "/Applications": true, "/private": true,
}

// systemTrees are where writes and permission changes are HIGH even without
// recursion: the OS itself.
var systemTrees = []string{"/etc", "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/boot",
	"/var", "/opt", "/root", "/System", "/Library", "/private/etc"}

// safeSinks are devices writing to which changes nothing.
var safeSinks = map[string]bool{
	"/dev/null": true, "/dev/stdout": true, "/dev/stderr": true, "/dev/stdin": true,
	"/dev/tty": true, "/dev/zero": true, "/dev/full": true, "/dev/random": true, "/dev/urandom": true,
}

// diskDevicePrefixes name block devices; writing one destroys a file system.
var diskDevicePrefixes = []string{"/dev/sd", "/dev/hd", "/dev/vd", "/dev/xvd", "/dev/nvme",
	"/dev/mmcblk", "/dev/disk", "/dev/rdisk", "/dev/mapper/", "/dev/md", "/dev/dm-", "/dev/loop",
	"/dev/mem", "/dev/kmem", "/dev/port", "/dev/sr", "/dev/root"}

// within reports whether p is dir or below it.
func within(p, dir string) bool {
	if dir == "/" {
		return strings.HasPrefix(p, "/")
	}
	return p == dir || strings.HasPrefix(p, dir+"/")
}

// resolve turns an argument into the target it names.
func (a *assessor) resolve(x arg) target {
	if x.under != nil {
		return *x.under
	}
	if !x.known {
		return target{dynamic: x.dynamic, shown: x.raw()}
	}
	p := x.text
	t := target{known: true}
	if x.globAt >= 0 {
		dir := ""
		if i := strings.LastIndex(p[:x.globAt], "/"); i >= 0 {
			dir = p[:i+1]
		}
		t.children = true
		t.all = everything(p[len(dir):])
		p = dir
		if p == "" {
			p = "."
		}
	}
	switch {
	case strings.HasPrefix(p, "/"):
		t.path = path.Clean(p)
	case a.cwdMode == cwdKnown:
		t.path = path.Join(a.cwd, p)
	case a.cwdMode == cwdWorkspace:
		t.rel = path.Clean(p)
	default:
		return target{shown: x.raw() + " (relative to an unknown directory)"}
	}
	t.shown = a.describe(t)
	return t
}

// everything reports whether a glob tail matches every entry: *, .*, */*.
func everything(tail string) bool {
	for _, c := range strings.Split(strings.TrimSuffix(tail, "/"), "/") {
		c = strings.TrimPrefix(c, ".")
		if c == "" || strings.Trim(c, "*") != "" {
			return false
		}
	}
	return true
}

func (a *assessor) describe(t target) string {
	var s string
	switch {
	case t.path == "":
		s = t.rel
	case a.home != "" && t.path == a.home:
		s = "~"
	case a.home != "" && within(t.path, a.home):
		s = "~/" + strings.TrimPrefix(t.path, a.home+"/")
	default:
		s = t.path
	}
	if t.children {
		s = strings.TrimSuffix(s, "/") + "/*"
	}
	return s
}

// place is where a known target lies, from the detector's point of view.
type place int

const (
	placeInside    place = iota // strictly inside a workspace root
	placeRoot                   // a workspace root itself
	placeTemp                   // /tmp, /var/tmp and below
	placeOutside                // elsewhere
	placeSensitive              // system trees, startup files, ~/.ssh, credentials
	placeCritical               // /, home, its ancestors, the OS's top directories
)

func (a *assessor) placeOf(t target) place {
	if t.path == "" { // relative to the unnamed workspace
		switch {
		case t.rel == ".":
			return placeRoot
		case t.rel == ".." || strings.HasPrefix(t.rel, "../"):
			return placeOutside
		case gitRunsCode(t.rel):
			return placeSensitive
		}
		return placeInside
	}
	p := t.path
	if criticalDirs[p] || (a.home != "" && within(a.home, p)) {
		return placeCritical
	}
	// Before workspace membership and /tmp: ~/.bashrc is a start-up file
	// even when the workspace is home or home is under /tmp.
	if _, ok := SensitivePath(p, a.home); ok {
		return placeSensitive
	}
	for _, r := range a.roots {
		if p == r {
			return placeRoot
		}
		if within(p, r) {
			return placeInside
		}
	}
	if within(p, "/tmp") || within(p, "/var/tmp") || within(p, "/private/tmp") {
		return placeTemp
	}
	if a.sensitive(p) {
		return placeSensitive
	}
	return placeOutside
}

func (a *assessor) sensitive(p string) bool {
	for _, d := range systemTrees {
		if within(p, d) {
			return true
		}
	}
	_, ok := SensitivePath(p, a.home)
	return ok
}

// whySensitive names what kind of sensitive place a target is.
func (a *assessor) whySensitive(t target) string {
	p := t.path
	if p == "" {
		p = t.rel
	}
	if why, ok := SensitivePath(p, a.home); ok {
		return why
	}
	if gitRunsCode(p) {
		return "git hooks or repository config: runs code on the next git command"
	}
	return "system file"
}

// protectedFile reports whether a workspace target is one of the built-in
// protected workspace files (ProtectedFiles), and why: a command writing
// .envrc or .vscode/tasks.json is rated as write_file writing it is, even
// where no OS sandbox keeps it read-only. (The user's additions reach the
// file tools and the sandbox, not this detector.)
func (a *assessor) protectedFile(t target) (string, bool) {
	if t.path == "" {
		return ProtectedFiles{}.Match(t.rel)
	}
	for _, r := range a.roots {
		if within(t.path, r) && t.path != r {
			return ProtectedFiles{}.Match(strings.TrimPrefix(t.path, strings.TrimSuffix(r, "/")+"/"))
		}
	}
	return "", false
}

// inGitDir reports whether a workspace path is the repository's .git or
// below it (history, hooks).
func (a *assessor) inGitDir(t target) bool {
	if t.path == "" {
		return t.rel == ".git" || strings.HasPrefix(t.rel, ".git/")
	}
	for _, r := range a.roots {
		if within(t.path, path.Join(r, ".git")) {
			return true
		}
	}
	return false
}

func isDiskDevice(p string) bool {
	for _, d := range diskDevicePrefixes {
		if strings.HasPrefix(p, d) {
			return true
		}
	}
	return false
}

// deleteTarget rates removing a target (rm, find -delete, mv's source).
func (a *assessor) deleteTarget(t target, recursive bool, verb string) {
	if !t.known {
		if recursive || t.dynamic {
			what := verb
			if recursive && verb == "delete" {
				what = "recursive delete"
			}
			a.flag(High, what+" of a path only known at run time: "+t.shown)
			return
		}
		a.raise(Medium)
		return
	}
	what := verb + " of " + t.shown
	if recursive && verb == "delete" {
		what = "recursive " + what
	}
	switch a.placeOf(t) {
	case placeCritical:
		if recursive && (!t.children || t.all) {
			a.flag(Critical, what)
			return
		}
		a.flag(High, what)
	case placeRoot:
		if recursive && (!t.children || t.all) {
			a.flag(High, what+" (the whole workspace)")
			return
		}
		a.raise(Medium)
	case placeInside:
		if recursive && a.inGitDir(t) {
			a.flag(High, what+" (the repository's history)")
			return
		}
		a.raise(Medium)
	case placeTemp:
		if recursive {
			a.flag(High, what+" (outside the workspace)")
			return
		}
		a.raise(Medium)
	case placeSensitive:
		a.flag(High, what)
	default:
		a.flag(High, what+" (outside the workspace)")
	}
}

// writeTarget rates writing to a target (redirections, tee, cp/mv
// destinations, dd of=, sed -i).
func (a *assessor) writeTarget(t target, verb string) {
	if !t.known {
		a.flag(High, verb+" to a path only known at run time: "+t.shown)
		return
	}
	if t.path != "" && strings.HasPrefix(t.path, "/dev/") {
		switch {
		case safeSinks[t.path] || strings.HasPrefix(t.path, "/dev/fd/") || strings.HasPrefix(t.path, "/dev/pts/"):
			return
		case isDiskDevice(t.path):
			a.flag(Critical, verb+" to disk device "+t.path)
		default:
			a.flag(High, verb+" to device "+t.path)
		}
		return
	}
	what := verb + " to " + t.shown
	switch a.placeOf(t) {
	case placeInside, placeRoot:
		if a.inGitDir(t) && !strings.HasSuffix(t.shown, ".git/COMMIT_EDITMSG") {
			a.flag(High, what+" (inside .git: hooks and config run code)")
			return
		}
		if why, ok := a.protectedFile(t); ok {
			a.flag(High, what+" (a protected workspace file: "+why+")")
			return
		}
		a.raise(Medium)
	case placeTemp:
		a.raise(Medium)
	case placeSensitive:
		a.flag(High, what+" ("+a.whySensitive(t)+")")
	default:
		a.flag(High, what+" (outside the workspace)")
	}
}

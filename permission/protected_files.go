package permission

import (
	"fmt"
	"path"
	"strings"
)

// Protected workspace files are files in the workspace that an editor,
// git, a shell, a package manager or this agent later executes or loads
// as configuration, outside every boundary: VS Code runs a folder's
// tasks, direnv a directory's .envrc, git the hooks a hook manager
// installs. Writing one through a file tool is HIGH (asked every time,
// never remembered, never auto-allowed) and commands in the OS sandbox
// cannot change or create them.
//
// Left out on purpose: build files that run only when the user builds
// (Makefile, package.json scripts, build.gradle, setup.py, justfiles):
// they are project code, reviewed as a diff like any source, and asking
// about each of them would make every build change a popup. .env is
// data that direnv loads only when a protected .envrc says so; writing
// it is HIGH already, as a file that holds secrets (tools' writeRisk).
// .github/workflows runs in CI, not here (HIGH, for its secrets).

// protectedEntry is one entry of the list.
type protectedEntry struct {
	// name is a slash path relative to a directory; a trailing "/" means
	// the directory and everything in it; "*" may stand in the last
	// segment (*.code-workspace).
	name string
	// root: only in a workspace root (and in the checkouts the sandbox
	// finds), because only there is it read; otherwise in any directory,
	// as the tool that reads it runs or opens in any directory.
	root bool
	// hookManager: a git hook manager's configuration (gitprotect).
	hookManager bool
	why         string
}

const (
	whyVSCode       = "VS Code configuration: runs tasks, debuggers, MCP servers and settings' programs when VS Code opens the folder"
	whyZed          = "Zed configuration: runs tasks and language servers when Zed opens the folder"
	whyIdea         = "JetBrains project configuration: run configurations and external tools run from it when the IDE opens the project"
	whyDevcontainer = "dev container configuration: its build and postCreateCommand run when the editor reopens the folder in a container"
	whyExrc         = "Vim/Neovim exrc: runs when the editor starts in this directory"
	whyEmacs        = "Emacs directory locals: their eval forms run when a file below is opened"
	whyDirenv       = "direnv file: runs in the user's shell on entering the directory"
	whyMise         = "mise configuration: its env scripts, hooks and tasks run on entering the directory"
	whyHooks        = "git hook manager configuration: runs at the next git commit"
	whyNpm          = "npm/Yarn/pnpm/Bun configuration: names code the package manager runs (script-shell, node-options, yarnPath, hooks, preload)"
	whyCargo        = "Cargo configuration: runners, wrappers and linkers run with every cargo command"
	whyMCP          = "MCP configuration: runs the programs it names when the agent or an editor starts"
	whyAgentHooks   = "an AI agent's settings: their hooks and MCP servers run programs"
)

// protectedList is the one list (the sandbox's git guard takes the hook
// managers' names from it too).
var protectedList = append([]protectedEntry{
	// Editors.
	{name: ".vscode/", why: whyVSCode},
	{name: "*.code-workspace", why: "VS Code workspace file: its settings, tasks and launch configurations run when it is opened"},
	{name: ".zed/", why: whyZed},
	{name: ".idea/", why: whyIdea},
	{name: ".devcontainer/", why: whyDevcontainer},
	{name: ".devcontainer.json", why: whyDevcontainer},
	{name: ".nvim.lua", why: whyExrc}, {name: ".nvimrc", why: whyExrc}, {name: ".exrc", why: whyExrc},
	{name: ".lazy.lua", why: "lazy.nvim project spec: loads plugins and runs code when Neovim starts here"},
	{name: ".dir-locals.el", why: whyEmacs}, {name: ".dir-locals-2.el", why: whyEmacs},
	// Shells.
	{name: ".envrc", why: whyDirenv},
	{name: "mise.toml", why: whyMise}, {name: ".mise.toml", why: whyMise},
	{name: "mise.local.toml", why: whyMise}, {name: ".mise.local.toml", why: whyMise},
	// Git hook managers.
	{name: ".husky/", hookManager: true, why: whyHooks},
	{name: ".githooks/", hookManager: true, why: whyHooks},
	{name: ".pre-commit-config.yaml", hookManager: true, why: whyHooks},
	{name: ".overcommit.yml", hookManager: true, why: whyHooks},
	{name: ".simple-git-hooks.json", hookManager: true, why: whyHooks},
	{name: ".simple-git-hooks.js", hookManager: true, why: whyHooks},
	{name: ".simple-git-hooks.cjs", hookManager: true, why: whyHooks},
	{name: "simple-git-hooks.json", hookManager: true, why: whyHooks},
	{name: "simple-git-hooks.js", hookManager: true, why: whyHooks},
	{name: "simple-git-hooks.cjs", hookManager: true, why: whyHooks},
	// Package managers and build tools whose configuration runs code
	// with every command, not only a build.
	{name: ".npmrc", why: whyNpm}, {name: ".yarnrc", why: whyNpm}, {name: ".yarnrc.yml", why: whyNpm},
	{name: ".pnpmfile.cjs", why: whyNpm}, {name: ".pnpmfile.mjs", why: whyNpm}, {name: "bunfig.toml", why: whyNpm},
	{name: ".cargo/config.toml", why: whyCargo}, {name: ".cargo/config", why: whyCargo},
	// MCP and agents' own settings: ours, and the editors' and agents'
	// that start servers or run hooks.
	{name: ".mcp.json", root: true, why: whyMCP},
	{name: ".cursor/mcp.json", why: whyMCP},
	{name: ".gemini/settings.json", why: whyAgentHooks},
	{name: ".claude/settings.json", why: whyAgentHooks},
	{name: ".claude/settings.local.json", why: whyAgentHooks},
}, lefthookEntries()...)

func lefthookEntries() []protectedEntry {
	out := make([]protectedEntry, len(lefthookConfigs))
	for i, c := range lefthookConfigs {
		out[i] = protectedEntry{name: c, hookManager: true, why: whyHooks}
	}
	return out
}

// lefthookConfigs are the files lefthook reads in a checkout's top dir.
var lefthookConfigs = []string{
	"lefthook.yml", ".lefthook.yml", "lefthook.yaml", ".lefthook.yaml", "lefthook.toml", ".lefthook.toml",
	"lefthook.json", ".lefthook.json", "lefthook-local.yml", ".lefthook-local.yml", "lefthook-local.yaml",
	".lefthook-local.yaml", "lefthook-local.toml", ".lefthook-local.toml", "lefthook-local.json", ".lefthook-local.json",
	".config/lefthook.yml", ".config/lefthook.yaml", ".config/lefthook-local.yml", ".config/lefthook-local.yaml",
}

// whyUser is the reason given for an entry the user added.
const whyUser = "protected by the user's configuration: runs or configures code later"

// ProtectedFiles is the list of protected workspace files: the built-in
// entries and those the user added (never fewer: nothing read from the
// workspace changes it). The zero value holds the built-in entries.
type ProtectedFiles struct {
	extra []protectedEntry
}

// NewProtectedFiles returns the built-in list extended by the user's
// entries: slash paths relative to a workspace directory ("deploy.sh",
// "scripts/", "*.service", ".config/tool/hooks.toml"), matched in any
// directory; a trailing "/" protects a directory and everything in it;
// "*", "?" and "[...]" may stand in the last segment. An absolute path,
// a ".." or an empty entry is an error.
func NewProtectedFiles(extra []string) (ProtectedFiles, error) {
	var p ProtectedFiles
	for _, e := range extra {
		name := strings.TrimSpace(e)
		dir := strings.HasSuffix(name, "/")
		clean := path.Clean(strings.TrimPrefix(name, "./"))
		if name == "" || strings.HasPrefix(name, "/") || clean == "." || clean == ".." || strings.HasPrefix(clean, "../") ||
			strings.Contains(clean, "/../") || strings.ContainsAny(path.Dir(clean), "*?[") {
			return ProtectedFiles{}, fmt.Errorf("protected file %q: want a path relative to the workspace, without .., wildcards only in its last part", e)
		}
		if _, err := path.Match(path.Base(clean), ""); err != nil {
			return ProtectedFiles{}, fmt.Errorf("protected file %q: %w", e, err)
		}
		if dir {
			clean += "/"
		}
		p.extra = append(p.extra, protectedEntry{name: clean, why: whyUser})
	}
	return p, nil
}

func (p ProtectedFiles) entries(yield func(protectedEntry) bool) {
	for _, e := range protectedList {
		if !yield(e) {
			return
		}
	}
	for _, e := range p.extra {
		if !yield(e) {
			return
		}
	}
}

// Match reports whether writing rel, a slash path relative to a
// workspace root, changes a protected file, and why (for the approval:
// "runs tasks ... when VS Code opens the folder"). Names are compared as
// they are written (Linux file systems are case-sensitive).
func (p ProtectedFiles) Match(rel string) (why string, ok bool) {
	rel = path.Clean(rel)
	if rel == "." || strings.HasPrefix(rel, "../") || strings.HasPrefix(rel, "/") {
		return "", false
	}
	segs := strings.Split(rel, "/")
	for e := range p.entries {
		if e.matches(segs) {
			return e.why, true
		}
	}
	return "", false
}

// matches reports whether the path segs is the entry (or below it, for
// a directory entry), in the root or, unless root, in any directory.
func (e protectedEntry) matches(segs []string) bool {
	dir := strings.HasSuffix(e.name, "/")
	want := strings.Split(strings.TrimSuffix(e.name, "/"), "/")
	last := len(segs) - len(want)
	if e.root {
		last = min(last, 0)
	}
	for start := 0; start <= last; start++ {
		if !dir && start+len(want) != len(segs) {
			continue
		}
		if segmentsMatch(want, segs[start:start+len(want)]) {
			return true
		}
	}
	return false
}

func segmentsMatch(want, got []string) bool {
	for i, w := range want {
		if i == len(want)-1 && strings.ContainsAny(w, "*?[") {
			if ok, _ := path.Match(w, got[i]); !ok {
				return false
			}
		} else if w != got[i] {
			return false
		}
	}
	return true
}

// ProtectedNames returns the entries as paths relative to a directory,
// for the OS sandbox to keep read-only in every checkout it finds: a
// directory entry without its trailing "/", a pattern as written (the
// sandbox protects what it matches there). A root-only entry is listed
// too: the sandbox only looks at roots and checkouts.
func (p ProtectedFiles) ProtectedNames() []string {
	var out []string
	for e := range p.entries {
		out = append(out, strings.TrimSuffix(e.name, "/"))
	}
	return out
}

// HookManagerConfigs are the git hook managers' entries of the list
// (husky's directory, pre-commit's and lefthook's configs, ...).
func HookManagerConfigs() []string {
	var out []string
	for _, e := range protectedList {
		if e.hookManager {
			out = append(out, strings.TrimSuffix(e.name, "/"))
		}
	}
	return out
}

// IsPattern reports whether a protected name holds wildcards.
func IsPattern(name string) bool { return strings.ContainsAny(path.Base(name), "*?[") }

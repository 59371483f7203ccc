package sandbox

import (
	"bytes"
	"context"
	"github.com/agent-lsp/agent-lsp/permission"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// gitFixture is a real repository as people have them: a commit, an
// absorbed submodule (sub, its git dir in .git/modules/sub) and a linked
// worktree checked out inside the workspace (linked, its admin dir in
// .git/worktrees/linked). Code planted from inside the sandbox would
// create marker when git, run outside the sandbox, runs it: marker is
// outside every writable dir, so nothing else can create it.
type gitFixture struct {
	fixture
	marker string
}

// gitLayout changes the repository before the sandbox starts (a hooks
// path, a missing hooks dir, ...).
type gitLayout func(t *testing.T, g gitFixture)

// The payloads a command plants: a hook and a config line that run
// `touch marker` at the next git command outside.
func (g gitFixture) hook() string {
	return "'#!/bin/sh\\ntouch " + g.marker + "\\n'"
}

func (g gitFixture) fsmonitor() string { return "'touch " + g.marker + "; false'" }

func newGitFixture(t *testing.T, layouts ...gitLayout) gitFixture {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	base := t.TempDir()
	g := gitFixture{fixture: fixture{home: filepath.Join(base, "home"), ws: filepath.Join(base, "ws"), outside: filepath.Join(base, "outside")}}
	g.marker = filepath.Join(g.outside, "planted-code-ran")
	// work is a directory of the checkout where a command can create
	// entries even with Landlock alone (which keeps new entries out of
	// the workspace root, see TestSandboxWithoutNamespaces).
	for _, d := range []string{g.home, g.outside, filepath.Join(g.ws, "work")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// Git outside and inside the sandbox: the fixture's home, no system
	// config, an identity.
	t.Setenv("HOME", g.home)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	for _, v := range []string{"GIT_AUTHOR_NAME", "GIT_COMMITTER_NAME"} {
		t.Setenv(v, "n")
	}
	for _, v := range []string{"GIT_AUTHOR_EMAIL", "GIT_COMMITTER_EMAIL"} {
		t.Setenv(v, "n@example.com")
	}
	subSrc := filepath.Join(base, "subsrc")
	for _, args := range [][]string{
		{"init", "-q", "-b", "main", subSrc},
		{"-C", subSrc, "commit", "-q", "--allow-empty", "-m", "sub"},
		{"init", "-q", "-b", "main", g.ws},
		{"-C", g.ws, "commit", "-q", "--allow-empty", "-m", "first"},
		{"-C", g.ws, "-c", "protocol.file.allow=always", "submodule", "add", "-q", subSrc, "sub"},
		{"-C", g.ws, "commit", "-q", "-m", "sub"},
		{"-C", g.ws, "worktree", "add", "-q", "-b", "side", "linked"},
	} {
		if out, err := gitOutside(args...); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	for _, l := range layouts {
		l(t, g)
	}
	return g
}

// gitOutside runs git as the user does, outside the sandbox.
func gitOutside(args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "git", args...).CombinedOutput()
	return string(out), err
}

// theUsersNextGit is what runs planted code: git status and a commit (its
// hooks) in the workspace, the submodule and the linked worktree, outside
// the sandbox. Their failures do not matter (an attack may have broken
// the repository); only whether the marker appears.
func (g gitFixture) theUsersNextGit(t *testing.T) {
	t.Helper()
	for _, dir := range []string{g.ws, filepath.Join(g.ws, "sub"), filepath.Join(g.ws, "linked"), filepath.Join(g.ws, "other")} {
		_, _ = gitOutside("-C", dir, "status")
		_, _ = gitOutside("-C", dir, "commit", "-q", "--allow-empty", "-m", "after")
	}
}

// withHooksPath sets core.hooksPath to dir (relative to the checkout), not
// created yet: a command must not be the one to create it.
func withHooksPath(dir string) gitLayout {
	return func(t *testing.T, g gitFixture) {
		if out, err := gitOutside("-C", g.ws, "config", "core.hooksPath", dir); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
	}
}

// withHusky is husky's layout: core.hooksPath .husky/_, whose hooks run
// the user's scripts in .husky/.
func withHusky(t *testing.T, g gitFixture) {
	withHooksPath(".husky/_")(t, g)
	files := map[string]string{
		".husky/_/pre-commit": "#!/bin/sh\nsh .husky/pre-commit\n",
		".husky/pre-commit":   "echo lint\n",
	}
	for p, text := range files {
		path := filepath.Join(g.ws, p)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

// withoutHooksDir is a repository made with an empty template: no
// .git/hooks.
func withoutHooksDir(t *testing.T, g gitFixture) {
	if err := os.RemoveAll(filepath.Join(g.ws, ".git", "hooks")); err != nil {
		t.Fatal(err)
	}
}

// withSymlinkedHooks keeps the hooks in the checkout, as some projects
// do: .git/hooks is a link to ../githooks.
func withSymlinkedHooks(t *testing.T, g gitFixture) {
	hooks := filepath.Join(g.ws, ".git", "hooks")
	if err := os.RemoveAll(hooks); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(g.ws, "githooks"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../githooks", hooks); err != nil {
		t.Fatal(err)
	}
}

// withNestedRepository adds other, a repository of its own right inside
// the workspace (a folder of projects opened as one workspace).
func withNestedRepository(t *testing.T, g gitFixture) {
	if out, err := gitOutside("init", "-q", filepath.Join(g.ws, "other")); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
}

// withoutRepository makes the workspace a plain directory (its git dir
// gone; the submodule and the linked worktree are left dangling).
func withoutRepository(t *testing.T, g gitFixture) {
	if err := os.RemoveAll(filepath.Join(g.ws, ".git")); err != nil {
		t.Fatal(err)
	}
}

// withWorktreeConfig turns on extensions.worktreeConfig: git then reads
// each worktree's config.worktree, which none has yet.
func withWorktreeConfig(t *testing.T, g gitFixture) {
	if out, err := gitOutside("-C", g.ws, "config", "extensions.worktreeConfig", "true"); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
}

// plantedGitDir makes, inside the workspace, a git dir whose config runs
// the payload: what a shadowing .git file or commondir would point at.
func (g gitFixture) plantedGitDir() string {
	return "git init -q --bare work/planted && git --git-dir=work/planted config core.fsmonitor " + g.fsmonitor() + " && "
}

type gitAttack struct {
	name    string
	layouts []gitLayout
	command func(g gitFixture) string
}

func gitAttacks() []gitAttack {
	return []gitAttack{
		{"write a hook", nil, func(g gitFixture) string {
			return "printf " + g.hook() + " > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit"
		}},
		{"write the config", nil, func(g gitFixture) string {
			return "git config core.fsmonitor " + g.fsmonitor()
		}},
		{"write info/", nil, func(g gitFixture) string { return "echo '* diff=x' > .git/info/attributes" }},
		{"replace the git dir", nil, func(g gitFixture) string {
			return "mv .git .git.old && mkdir .git && cp -r .git.old/. .git/ && rm -rf .git/hooks && mkdir .git/hooks && " +
				"printf " + g.hook() + " > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit"
		}},
		{"rename the git dir", nil, func(g gitFixture) string { return "mv .git .git.old" }},
		{"shadow the git dir with a .git file", nil, func(g gitFixture) string {
			return g.plantedGitDir() + "{ mv .git .git.old || rmdir .git; } && echo \"gitdir: $PWD/work/planted\" > .git"
		}},
		{"create a missing hooks dir", []gitLayout{withoutHooksDir}, func(g gitFixture) string {
			return "mkdir -p .git/hooks && printf " + g.hook() + " > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit"
		}},
		{"core.hooksPath target in the workspace", []gitLayout{withHooksPath(".githooks")}, func(g gitFixture) string {
			return "mkdir -p .githooks && printf " + g.hook() + " > .githooks/pre-commit && chmod +x .githooks/pre-commit"
		}},
		{"husky's scripts", []gitLayout{withHusky}, func(g gitFixture) string {
			return "echo 'touch " + g.marker + "' >> .husky/pre-commit"
		}},
		{"a submodule's hook", nil, func(g gitFixture) string {
			return "printf " + g.hook() + " > .git/modules/sub/hooks/pre-commit && chmod +x .git/modules/sub/hooks/pre-commit"
		}},
		{"a submodule's config", nil, func(g gitFixture) string {
			return "git -C sub config core.fsmonitor " + g.fsmonitor()
		}},
		{"a submodule checkout's .git file", nil, func(g gitFixture) string {
			return g.plantedGitDir() + "echo \"gitdir: $PWD/work/planted\" > sub/.git"
		}},
		{"replace a submodule checkout", nil, func(g gitFixture) string {
			return g.plantedGitDir() + "mv sub sub.old && mkdir sub && echo \"gitdir: $PWD/work/planted\" > sub/.git"
		}},
		{"replace the modules dir", nil, func(g gitFixture) string {
			return "mv .git/modules .git/modules.old && mkdir -p .git/modules && cp -r .git/modules.old/sub .git/modules/ && " +
				"git --git-dir=.git/modules/sub config core.fsmonitor " + g.fsmonitor()
		}},
		{"a worktree's commondir", nil, func(g gitFixture) string {
			return g.plantedGitDir() + "echo \"$PWD/work/planted\" > .git/worktrees/linked/commondir"
		}},
		{"a worktree's config.worktree", []gitLayout{withWorktreeConfig}, func(g gitFixture) string {
			return "printf '[core]\\n\\tfsmonitor = touch " + g.marker + "; false\\n' > .git/worktrees/linked/config.worktree"
		}},
		{"a linked checkout's .git file", nil, func(g gitFixture) string {
			return g.plantedGitDir() + "echo \"gitdir: $PWD/work/planted\" > linked/.git"
		}},
		// A commondir cannot be mounted where there is none (the git dir
		// must stay writable), so the tripwire stops the command that
		// creates one. The sleep is what is under test: the command stays
		// to be stopped, rather than ending by itself first.
		{"create a commondir in the git dir", nil, func(g gitFixture) string {
			return g.plantedGitDir() + "echo \"$PWD/work/planted\" > .git/commondir && sleep 10 && echo survived"
		}},
		{"create a commondir in a submodule's git dir", nil, func(g gitFixture) string {
			return g.plantedGitDir() + "echo \"$PWD/work/planted\" > .git/modules/sub/commondir && sleep 10 && echo survived"
		}},
		{"replace a symlinked hooks dir", []gitLayout{withSymlinkedHooks}, func(g gitFixture) string {
			return "rm .git/hooks && mkdir .git/hooks && printf " + g.hook() + " > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit && " +
				"sleep 10 && echo survived" // the sleep is under test, as for commondir
		}},
		{"the target of a symlinked hooks dir", []gitLayout{withSymlinkedHooks}, func(g gitFixture) string {
			return "printf " + g.hook() + " > githooks/pre-commit && chmod +x githooks/pre-commit"
		}},
		{"a nested repository's config", []gitLayout{withNestedRepository}, func(g gitFixture) string {
			return "git -C other config core.fsmonitor " + g.fsmonitor()
		}},
		{"replace a nested repository's git dir", []gitLayout{withNestedRepository}, func(g gitFixture) string {
			return g.plantedGitDir() + "mv other/.git other/.git.old && echo \"gitdir: $PWD/work/planted\" > other/.git"
		}},
		{"make the workspace a repository", []gitLayout{withoutRepository}, func(g gitFixture) string {
			return "git init -q . && git config core.fsmonitor " + g.fsmonitor() + " && sleep 10 && echo survived"
		}},
		{"replace a worktree's admin dir", nil, func(g gitFixture) string {
			return g.plantedGitDir() + "mv .git/worktrees/linked .git/worktrees/old && cp -r .git/worktrees/old .git/worktrees/linked && " +
				"echo \"$PWD/work/planted\" > .git/worktrees/linked/commondir"
		}},
	}
}

// TestGitMetadataOutOfReach plants code wherever git would run it from,
// in every layout, with namespaces and with Landlock alone: each attempt
// is refused, explained as git metadata, and the user's next git
// commands (outside the sandbox) run nothing planted.
func TestGitMetadataOutOfReach(t *testing.T) { testGitAttacks(t, true) }

// TestGitMetadataOutOfReachGoLauncher runs the attacks through the Go
// launcher (Main), the one of builds without cgo, which mounts the same
// pins and read-only paths as launcher.c (Landlock alone mounts nothing).
func TestGitMetadataOutOfReachGoLauncher(t *testing.T) {
	t.Setenv(envGoLauncher, "1")
	testGitAttacks(t, false)
}

// testGitAttacks runs every attack with namespaces and, if asked, with
// Landlock alone.
func testGitAttacks(t *testing.T, landlockOnly bool) {
	type mode struct {
		name string
		st   Settings
	}
	modes := []mode{{"namespaces", Settings{}}}
	if landlockOnly {
		modes = append(modes, mode{"landlock only", Settings{NoNamespaces: true}})
	}
	for _, mode := range modes {
		for _, a := range gitAttacks() {
			t.Run(mode.name+"/"+a.name, func(t *testing.T) {
				g := newGitFixture(t, a.layouts...)
				s := newSandbox(t, g.fixture, mode.st)
				if st := s.Status(); !st.Active || st.Namespaces == mode.st.NoNamespaces {
					t.Fatalf("sandbox not as asked on this machine: %s", st.Summary())
				}
				command := a.command(g)
				out, code, explain := run(t, s, g.fixture, command)
				g.theUsersNextGit(t)
				if _, err := os.Stat(g.marker); err == nil {
					t.Fatalf("planted code ran at the user's next git command (exit %d, output %q)", code, out)
				}
				if code == 0 {
					t.Fatalf("%s succeeded in the sandbox: %q", command, out)
				}
				if !strings.Contains(explain, gitReadOnly) {
					t.Errorf("output %q explained as %q, want %q", out, explain, gitReadOnly)
				}
			})
		}
	}
}

// Everyday git works in the sandbox in the same repository: add, commit,
// status, a new branch, in the workspace, its submodule and its linked
// worktree (objects, refs, logs, the index and HEAD stay writable).
func TestGitEverydayInTheSandbox(t *testing.T) {
	g := newGitFixture(t, withHooksPath(".githooks"))
	s := newSandbox(t, g.fixture, Settings{})
	for _, dir := range []string{"work", "sub", "linked"} {
		command := "cd " + dir + " && echo hi > a.txt && git add a.txt && git commit -qm 'add a' && git status --short && " +
			"git checkout -q -b feature-" + dir + " && git log --oneline -1"
		out, code, explain := run(t, s, g.fixture, command)
		if code != 0 || !strings.Contains(out, "add a") {
			t.Errorf("%s: exit %d, output %q, explanation %q", command, code, out, explain)
		}
	}
	// The repository is sound for git outside afterwards.
	if out, err := gitOutside("-C", g.ws, "fsck", "--no-progress"); err != nil {
		t.Errorf("git fsck after the sandbox's commits: %v\n%s", err, out)
	}
}

// guardGit finds every protected path of the layout, and a pinned
// ancestor for each (a directory whose parent is writable).
func TestGitGuardFindsTheLayout(t *testing.T) {
	g := newGitFixture(t, withHooksPath(".githooks"), withWorktreeConfig)
	ws := resolve(g.ws)
	got := guardGit([]string{ws}, g.home, nil)
	j := func(p string) string { return filepath.Join(ws, p) }
	for _, p := range []string{".git", ".git/modules", ".git/modules/sub", "sub", ".git/worktrees", ".git/worktrees/linked", "linked"} {
		if !slices.Contains(got.pinned, j(p)) {
			t.Errorf("%s not pinned: %q", p, got.pinned)
		}
	}
	for _, p := range []string{".git/config", ".git/hooks", ".git/info", ".git/commondir", ".git/config.worktree",
		".git/modules/sub/config", ".git/modules/sub/hooks", ".git/modules/sub/info", "sub/.git",
		".git/worktrees/linked/commondir", ".git/worktrees/linked/gitdir", ".git/worktrees/linked/config.worktree", "linked/.git", ".githooks"} {
		if !slices.Contains(got.readOnly, j(p)) {
			t.Errorf("%s not read-only: %q", p, got.readOnly)
		}
	}
	for _, p := range []string{".git/objects", ".git/refs", ".git/index", ".git/HEAD", ".git/logs", ".git/worktrees/linked/index", ".git/worktrees/linked/HEAD"} {
		if slices.Contains(got.readOnly, j(p)) {
			t.Errorf("%s is read-only: git add and commit need it", p)
		}
	}
	if !slices.Contains(got.createDirs, j(".githooks")) || !slices.Contains(got.createFiles, j(".git/worktrees/linked/config.worktree")) {
		t.Errorf("missing protected paths not created: dirs %q, files %q", got.createDirs, got.createFiles)
	}
	// Outside the writable dirs nothing is protected (Landlock keeps it);
	// a writable dir that is no repository must not become one.
	other := guardGit([]string{resolve(g.outside)}, g.home, nil)
	if want := []string{filepath.Join(resolve(g.outside), ".git")}; !slices.Equal(other.readOnly, want) || len(other.pinned) != 0 {
		t.Errorf("guard of a plain writable dir: %+v, want only %q read-only", other, want)
	}
}

// The configs of hook managers whose hooks are installed (pre-commit,
// lefthook) are what those hooks run at the next commit: protected, the
// missing ones too (lefthook-local.yml is read when it appears).
func TestGitGuardFindsHookManagers(t *testing.T) {
	g := newGitFixture(t)
	ws := resolve(g.ws)
	hooks := map[string]string{
		"pre-commit": "#!/usr/bin/env bash\n# File generated by pre-commit: https://pre-commit.com\nARGS=(hook-impl --config=.pre-commit-config.yaml --hook-type=pre-commit)\n",
		"pre-push":   "#!/bin/sh\ncall_lefthook run \"pre-push\" \"$@\"\n",
	}
	for name, text := range hooks {
		if err := os.WriteFile(filepath.Join(ws, ".git", "hooks", name), []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	got := guardGit([]string{ws}, g.home, nil)
	for _, p := range []string{".pre-commit-config.yaml", "lefthook.yml", "lefthook-local.yml", ".lefthook.yml"} {
		if !slices.Contains(got.readOnly, filepath.Join(ws, p)) {
			t.Errorf("%s not protected: %q", p, got.readOnly)
		}
	}
	// Without their hooks installed, the sandbox's list of protected
	// workspace files protects them all the same (a hook manager's
	// install runs at the user's next npm install or commit).
	g2 := newGitFixture(t)
	var files permission.ProtectedFiles
	if other := guardGit([]string{resolve(g2.ws)}, g2.home, files.ProtectedNames()); !slices.Contains(other.readOnly, filepath.Join(resolve(g2.ws), "lefthook.yml")) {
		t.Errorf("lefthook.yml not protected by the list: %q", other.readOnly)
	}
}

// TestGitMetadataOutOfReachAsNobody runs the git attacks (both launchers)
// and everyday git again as an ordinary user (setpriv to nobody).
func TestGitMetadataOutOfReachAsNobody(t *testing.T) {
	out := runAsNobody(t, "^(TestGitMetadataOutOfReach|TestGitMetadataOutOfReachGoLauncher|TestGitEverydayInTheSandbox)$")
	for _, name := range []string{"TestGitMetadataOutOfReach", "TestGitMetadataOutOfReachGoLauncher", "TestGitEverydayInTheSandbox"} {
		if !bytes.Contains(out, []byte("--- PASS: "+name+" ")) {
			t.Fatalf("%s did not pass as nobody:\n%s", name, out)
		}
	}
	t.Logf("as nobody:\n%s", lastLines(string(out), 3))
}

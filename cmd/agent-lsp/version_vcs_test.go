package main

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/agent-lsp/agent-lsp/lsp/lsptest"
)

func TestVersionOfBuildInfo(t *testing.T) {
	const rev = "0123456789abcdef0123456789abcdef01234567"
	vcs := func(modified string) []debug.BuildSetting {
		return []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: modified}}
	}
	for _, c := range []struct {
		name string
		info debug.BuildInfo
		want string
	}{
		{"go install of a tag", debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}, Settings: vcs("false")}, "v1.2.3"},
		{"the go command's pseudo-version", debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261207000000-0123456789ab+dirty"}}, "v0.0.0-20261207000000-0123456789ab+dirty"},
		{"devel with a clean revision", debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("false")}, "dev-0123456789ab"},
		{"devel with uncommitted changes", debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("true")}, "dev-0123456789ab-dirty"},
		{"no version, no stamp (-buildvcs=false)", debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "dev"},
		{"empty", debug.BuildInfo{}, "dev"},
	} {
		if got := versionOf(&c.info); got != c.want {
			t.Errorf("%s: versionOf = %q, want %q", c.name, got, c.want)
		}
	}
}

// A go build in a git checkout says which commit it is, whatever GOFLAGS
// the environment sets (CI's has -buildvcs=false, so the build asks for
// the stamp itself). The checkout is made here, from the module's files,
// so the test needs neither a checkout around it nor one of a given
// shape: with the module at the repository's root the go command derives
// a pseudo-version naming the revision; with the module in a subdirectory
// it stamps only vcs.revision and vcs.modified, which buildVersion turns
// into dev-<revision>[-dirty].
func TestGoBuildInAGitCheckoutPrintsTheRevision(t *testing.T) {
	if os.Getenv(lsptest.BinaryEnv) != "" {
		t.Skipf("%s names a prebuilt binary; this test builds its own", lsptest.BinaryEnv)
	}
	if _, err := exec.LookPath("git"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("git is needed: %v", err)
		}
		t.Skipf("no git: %v", err)
	}
	// Two cores shared with other builds can take minutes over a build
	// whose packages are not in the cache yet (-trimpath's are their own).
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	files := moduleFiles(t)

	t.Run("module at the root", func(t *testing.T) {
		repo := t.TempDir()
		copyModule(t, files, repo)
		rev := commitAll(t, ctx, repo)
		out := buildAndVersion(t, ctx, repo)
		// v0.0.0-<commit time>-<12 hex of the revision>
		if !regexp.MustCompile(`^agent-lsp v0\.0\.0-\d{14}-` + rev[:12] + "\n$").MatchString(out) {
			t.Errorf("--version = %q, want the pseudo-version of %s", out, rev)
		}
	})

	t.Run("module in a subdirectory, then changed", func(t *testing.T) {
		repo := t.TempDir()
		module := filepath.Join(repo, "agent-lsp")
		copyModule(t, files, module)
		rev := commitAll(t, ctx, repo)
		if out := buildAndVersion(t, ctx, module); out != "agent-lsp dev-"+rev[:12]+"\n" {
			t.Errorf("--version = %q, want agent-lsp dev-%s", out, rev[:12])
		}
		if err := os.WriteFile(filepath.Join(module, "uncommitted.txt"), []byte("a change\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if out := buildAndVersion(t, ctx, module); out != "agent-lsp dev-"+rev[:12]+"-dirty\n" {
			t.Errorf("--version with an uncommitted file = %q, want agent-lsp dev-%s-dirty", out, rev[:12])
		}
	})
}

// moduleFiles are the module's files as this checkout has them: the
// tracked ones and new ones not ignored, relative to the module root.
func moduleFiles(t *testing.T) map[string]string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("git ls-files in %s: %v", root, err)
		}
		t.Skipf("not a git checkout: %v", err)
	}
	files := map[string]string{}
	for _, name := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		files[name] = filepath.Join(root, filepath.FromSlash(name))
	}
	return files
}

func copyModule(t *testing.T, files map[string]string, dst string) {
	t.Helper()
	for name, src := range files {
		info, err := os.Lstat(src)
		if err != nil || !info.Mode().IsRegular() {
			continue // deleted in the working tree, or a symlink the build does not need
		}
		to := filepath.Join(dst, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			t.Fatal(err)
		}
		in, err := os.Open(src)
		if err != nil {
			t.Fatal(err)
		}
		out, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, info.Mode().Perm())
		if err == nil {
			_, err = io.Copy(out, in)
			if cerr := out.Close(); err == nil {
				err = cerr
			}
		}
		_ = in.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
}

// gitEnv keeps the user's and the machine's git configuration out of the
// test's repositories.
func gitEnv() []string {
	return append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=test", "GIT_AUTHOR_EMAIL=test@example.invalid",
		"GIT_COMMITTER_NAME=test", "GIT_COMMITTER_EMAIL=test@example.invalid")
}

// commitAll makes repo a git repository holding everything in it, and
// returns the commit's full revision.
func commitAll(t *testing.T, ctx context.Context, repo string) string {
	t.Helper()
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"commit", "-q", "-m", "the module"}} {
		git := exec.CommandContext(ctx, "git", args...)
		git.Dir, git.Env = repo, gitEnv()
		if out, err := git.CombinedOutput(); err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	git := exec.CommandContext(ctx, "git", "rev-parse", "HEAD")
	git.Dir, git.Env = repo, gitEnv()
	out, err := git.Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(out))
}

// buildAndVersion builds ./cmd/agent-lsp in module as a user does (no
// -ldflags) and returns what --version prints.
func buildAndVersion(t *testing.T, ctx context.Context, module string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "agent-lsp")
	build := exec.CommandContext(ctx, "go", "build", "-buildvcs=true", "-trimpath", "-o", bin, "./cmd/agent-lsp")
	build.Dir = module
	build.Env = append(gitEnv(), "GOWORK=off", "GOFLAGS=-buildvcs=true")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.CommandContext(ctx, bin, "--version").Output()
	if err != nil {
		t.Fatalf("--version: %v", err)
	}
	return string(out)
}

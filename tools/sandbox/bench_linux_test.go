package sandbox

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"
)

// BenchmarkCommandStart measures what one command costs to start and
// end: `bash -c true` plain and through the sandbox (launcher exec,
// namespaces, the policy walk, Landlock). The difference of the medians
// is the sandbox's start-up overhead per command (budget: 10 ms).
// sandboxed-git runs in a git repository (git init), whose metadata the
// sandbox finds, mounts and watches for every command (gitGuard);
// sandboxed-git-editor-files in one that holds protected workspace files
// (.vscode/, .husky/, .npmrc, .envrc: workspace_files.go).
//
// AGENT_LSP_SANDBOX_BENCH_LAUNCHER=path/to/agent-lsp times the real
// binary as the launcher instead of this test binary (larger, slower to
// start).
func BenchmarkCommandStart(b *testing.B) {
	if p := os.Getenv("AGENT_LSP_SANDBOX_BENCH_LAUNCHER"); p != "" {
		launcherPath = p
		defer func() { launcherPath = "/proc/self/exe" }()
	}
	plainWS, gitWS, editorWS := benchWorkspaces(b)
	for _, c := range []struct {
		name string
		st   Settings
		ws   string
	}{
		{"plain", Settings{ForceUnavailable: true}, plainWS},
		{"sandboxed", Settings{}, plainWS},
		{"sandboxed-git", Settings{}, gitWS},
		{"sandboxed-git-editor-files", Settings{}, editorWS},
		{"sandboxed-no-namespaces", Settings{NoNamespaces: true}, plainWS},
	} {
		ws := c.ws
		b.Run(c.name, func(b *testing.B) {
			s, err := New(c.st, []string{ws})
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			times := make([]time.Duration, 0, b.N)
			for b.Loop() {
				start := time.Now()
				cmd, release, err := s.Command("true", ws, os.Environ())
				if err != nil {
					b.Fatal(err)
				}
				// As the runner does: release once started, then wait.
				var out bytes.Buffer
				cmd.Stdout, cmd.Stderr = &out, &out
				err = cmd.Start()
				release()
				if err == nil {
					err = cmd.Wait()
				}
				if err != nil {
					b.Fatalf("%v: %s", err, out.String())
				}
				times = append(times, time.Since(start))
			}
			slices.Sort(times)
			b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "median-ms")
		})
	}
}

// BenchmarkHandoffStart measures the same `bash -c true` handed to a stub,
// as an ACP client's terminal runs it: the stub's own start (this test
// binary; AGENT_LSP_SANDBOX_BENCH_LAUNCHER times the real one), the socket,
// the token, the handoff, then the launcher as above. The difference from
// BenchmarkCommandStart/sandboxed is what the client's terminal costs on
// top of the sandbox.
func BenchmarkHandoffStart(b *testing.B) {
	stubPath := testBinary()
	if p := os.Getenv("AGENT_LSP_SANDBOX_BENCH_LAUNCHER"); p != "" {
		stubPath = p
	}
	ws := b.TempDir()
	s, err := New(Settings{}, []string{ws})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	times := make([]time.Duration, 0, b.N)
	for b.Loop() {
		start := time.Now()
		h, err := s.Handoff("true", ws, os.Environ())
		if err != nil {
			b.Fatal(err)
		}
		a, err := Attach(h)
		if err != nil {
			b.Fatal(err)
		}
		stub := exec.Command(stubPath, a.Args()...)
		name, token := a.Env()
		stub.Env = append(os.Environ(), name+"="+token)
		out, err := stub.CombinedOutput()
		<-a.Done()
		_ = a.Close()
		if err != nil {
			b.Fatalf("%v: %s", err, out)
		}
		times = append(times, time.Since(start))
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "median-ms")
}

// BenchmarkPolicyBuild measures the daemon's share of a command's start:
// computing its launch policy (the Landlock grants, the git metadata and
// protected workspace files found, mounted and watched), without the
// launcher's process, which dominates BenchmarkCommandStart and its
// noise on a loaded machine.
func BenchmarkPolicyBuild(b *testing.B) {
	plainWS, gitWS, editorWS := benchWorkspaces(b)
	for _, c := range []struct{ name, ws string }{{"plain", plainWS}, {"git", gitWS}, {"git-editor-files", editorWS}} {
		b.Run(c.name, func(b *testing.B) {
			s, err := New(Settings{}, []string{c.ws})
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			for b.Loop() {
				if _, err := s.buildPolicy(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkPrepareHome measures the daemon's share of a command's start
// (the policy and the Landlock ruleset, read rules included) with $HOME
// empty and with 1,000 entries around its secret stores: the read rules
// are kept between commands and the next command's ruleset is built
// ahead (ahead_linux.go), so the second must cost about the first. The
// commands come apart, as an agent's do: the timer stops while the next
// ruleset is built.
func BenchmarkPrepareHome(b *testing.B) {
	quietTempDir(b)
	for _, n := range []int{0, 1000} {
		b.Run(strconv.Itoa(n)+"-entries", func(b *testing.B) {
			home := b.TempDir()
			for _, d := range []string{".ssh", ".config/gh", ".aws"} {
				if err := os.MkdirAll(filepath.Join(home, d), 0o700); err != nil {
					b.Fatal(err)
				}
			}
			for i := range n {
				if err := os.Mkdir(filepath.Join(home, "entry-"+strconv.Itoa(i)), 0o755); err != nil {
					b.Fatal(err)
				}
			}
			ws := b.TempDir()
			s, err := New(Settings{Home: home}, []string{ws})
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			s.Status()
			for b.Loop() {
				l, err := s.prepare("true", ws, nil)
				if err != nil {
					b.Fatal(err)
				}
				l.close()
				b.StopTimer()
				s.reads.buildAfter(0, l.next, nil)
				spareBuilt(b, s)
				b.StartTimer()
			}
		})
	}
}

// benchWorkspaces are the benchmarks' three workspaces: a plain folder, a
// git repository, and a git repository as editors and hook managers leave
// it: protected workspace files that exist (mounted read-only) beside the
// missing ones (watched).
func benchWorkspaces(b *testing.B) (plain, git, editor string) {
	plain, git, editor = b.TempDir(), b.TempDir(), b.TempDir()
	for _, ws := range []string{git, editor} {
		if out, err := exec.Command("git", "init", "-q", ws).CombinedOutput(); err != nil {
			b.Fatalf("git init: %v: %s", err, out)
		}
	}
	for _, p := range []string{".vscode/settings.json", ".vscode/launch.json", ".husky/pre-commit", ".npmrc", ".envrc"} {
		abs := filepath.Join(editor, p)
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(abs, []byte("x\n"), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return plain, git, editor
}

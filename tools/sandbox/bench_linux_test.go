package sandbox

import (
	"bytes"
	"os"
	"os/exec"
	"slices"
	"testing"
	"time"
)

// BenchmarkCommandStart measures what one command costs to start and
// end: `bash -c true` plain and through the sandbox (launcher exec,
// namespaces, the policy walk, Landlock). The difference of the medians
// is the sandbox's start-up overhead per command (budget: 10 ms).
// sandboxed-git runs in a git repository (git init), whose metadata the
// sandbox finds, mounts and watches for every command (gitGuard).
//
// AGENT_LSP_SANDBOX_BENCH_LAUNCHER=path/to/agent-lsp times the real
// binary as the launcher instead of this test binary (larger, slower to
// start).
func BenchmarkCommandStart(b *testing.B) {
	if p := os.Getenv("AGENT_LSP_SANDBOX_BENCH_LAUNCHER"); p != "" {
		launcherPath = p
		defer func() { launcherPath = "/proc/self/exe" }()
	}
	plainWS, gitWS := b.TempDir(), b.TempDir()
	if out, err := exec.Command("git", "init", "-q", gitWS).CombinedOutput(); err != nil {
		b.Fatalf("git init: %v: %s", err, out)
	}
	for _, c := range []struct {
		name string
		st   Settings
		ws   string
	}{
		{"plain", Settings{ForceUnavailable: true}, plainWS},
		{"sandboxed", Settings{}, plainWS},
		{"sandboxed-git", Settings{}, gitWS},
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

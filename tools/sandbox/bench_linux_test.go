package sandbox

import (
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
//
// AGENT_LSP_SANDBOX_BENCH_LAUNCHER=path/to/agent-lsp times the real
// binary as the launcher instead of this test binary (larger, slower to
// start).
func BenchmarkCommandStart(b *testing.B) {
	if p := os.Getenv("AGENT_LSP_SANDBOX_BENCH_LAUNCHER"); p != "" {
		launcherPath = p
		defer func() { launcherPath = "/proc/self/exe" }()
	}
	ws := b.TempDir()
	for _, c := range []struct {
		name string
		st   Settings
	}{
		{"plain", Settings{ForceUnavailable: true}},
		{"sandboxed", Settings{}},
		{"sandboxed-no-namespaces", Settings{NoNamespaces: true}},
	} {
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
				out, err := cmd.CombinedOutput()
				release()
				if err != nil {
					b.Fatalf("%v: %s", err, out)
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

// Command sandbox-bench measures what the run_bash sandbox adds to one
// command's start, against bubblewrap (the sandbox Claude Code uses on
// Linux) in the same run: `bash -c true` plain, through our launcher
// (Landlock + user, mount, PID and network namespaces), and through bwrap
// with the same namespaces. It prints the medians and the ratio.
//
// This binary is its own sandbox launcher, as agent-lsp is (sandbox.Main).
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"time"

	"github.com/agent-lsp/agent-lsp/tools/sandbox"
)

func main() {
	sandbox.Main()
	n := flag.Int("n", 200, "commands per variant")
	flag.Parse()
	if err := run(*n, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "sandbox-bench:", err)
		os.Exit(1)
	}
}

func run(n int, out io.Writer) error {
	ws, err := os.MkdirTemp("", "sandbox-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(ws)

	plain, err := sandbox.New(sandbox.Settings{ForceUnavailable: true}, []string{ws})
	if err != nil {
		return err
	}
	defer plain.Close()
	ours, err := sandbox.New(sandbox.Settings{}, []string{ws})
	if err != nil {
		return err
	}
	defer ours.Close()
	if !ours.Status().Active {
		return fmt.Errorf("the sandbox is not available here: %s", ours.Status().Summary())
	}
	through := func(s *sandbox.Sandbox) func() error {
		return func() error {
			cmd, release, err := s.Command("true", ws, os.Environ())
			if err != nil {
				return err
			}
			defer release()
			if b, err := cmd.CombinedOutput(); err != nil {
				return fmt.Errorf("%w: %s", err, b)
			}
			return nil
		}
	}
	variants := []struct {
		name string
		run  func() error
	}{
		{"plain bash -c true", through(plain)},
		{"agent-lsp sandbox", through(ours)},
	}
	if bwrap, err := exec.LookPath("bwrap"); err == nil {
		variants = append(variants, struct {
			name string
			run  func() error
		}{"bubblewrap", func() error {
			cmd := exec.Command(bwrap, "--unshare-user", "--unshare-pid", "--unshare-net", "--die-with-parent",
				"--ro-bind", "/", "/", "--bind", ws, ws, "--proc", "/proc", "--dev", "/dev", "--chdir", ws,
				"bash", "-c", "true")
			if b, err := cmd.CombinedOutput(); err != nil {
				return fmt.Errorf("%w: %s", err, b)
			}
			return nil
		}})
	} else {
		fmt.Fprintln(out, "bwrap not found (apt-get install bubblewrap): no reference")
	}
	medians := map[string]time.Duration{}
	for _, v := range variants {
		times := make([]time.Duration, 0, n)
		for range n {
			start := time.Now()
			if err := v.run(); err != nil {
				return fmt.Errorf("%s: %w", v.name, err)
			}
			times = append(times, time.Since(start))
		}
		slices.Sort(times)
		medians[v.name] = times[len(times)/2]
		fmt.Fprintf(out, "%-20s median %6.2f ms  p90 %6.2f ms  (%d runs)\n", v.name,
			ms(times[len(times)/2]), ms(times[len(times)*9/10]), n)
	}
	base := medians["plain bash -c true"]
	fmt.Fprintf(out, "agent-lsp overhead per command: %.2f ms (median; budget 10 ms)\n", ms(medians["agent-lsp sandbox"]-base))
	if bw, ok := medians["bubblewrap"]; ok {
		fmt.Fprintf(out, "bubblewrap overhead per command: %.2f ms\n", ms(bw-base))
		fmt.Fprintf(out, "ratio agent-lsp/bubblewrap (whole command): %.2f\n", float64(medians["agent-lsp sandbox"])/float64(bw))
	}
	return nil
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

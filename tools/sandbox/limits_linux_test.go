package sandbox

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agent-lsp/agent-lsp/internal/await"
)

// TestSandboxLimitsEndBombs: a fork bomb and a memory bomb end the
// command with an explanation, and the next command runs as usual.
func TestSandboxLimitsEndBombs(t *testing.T) {
	f := newFixture(t)
	s := newSandbox(t, f, Settings{ProcessLimit: MinProcessLimit})
	if !s.Status().Namespaces {
		t.Fatalf("namespaces expected: %s", s.Status().Summary())
	}
	t.Run("process limit", func(t *testing.T) {
		// perl (in every Debian, perl-base) forks without bash's retries.
		out, code, explain := run(t, s, f, `perl -e 'for my $n (0..100000) { my $p = fork(); if (!defined $p) { print "started $n, then: fork: $!\n"; exit 1 } if ($p == 0) { sleep 600; exit 0 } }'`)
		if code == 0 || !strings.Contains(out, "Resource temporarily unavailable") {
			t.Fatalf("exit %d, output %.300q: want a fork refused by the limit", code, out)
		}
		var started int
		if _, err := fmt.Sscanf(out, "started %d,", &started); err != nil || started >= MinProcessLimit {
			t.Errorf("output %q: want fewer than 300 processes started", out)
		}
		if !strings.Contains(explain, "process limit (300 processes") {
			t.Errorf("explanation %q does not name the process limit", explain)
		}
	})
	t.Run("fork bomb", func(t *testing.T) {
		// A bash fork bomb grows until the limit refuses its forks and
		// runs on until the runner's timeout (here 5 s: the timeout is
		// the behaviour under test) kills the command's first process;
		// the kernel then ends its PID namespace, the bomb with it.
		marker := "bomb" + strconv.Itoa(os.Getpid())
		out, _, _, timedOut := runFor(t, s, f, marker+`() { `+marker+` | `+marker+`; }; `+marker, 5*time.Second)
		if !timedOut {
			t.Fatalf("the bomb ended by itself: %.300q", out)
		}
		await.Poll(t, 30*time.Second, "the bomb's processes gone (the kernel ends them; /proc is outside the test)", func() bool {
			return countProcesses(marker) == 0
		})
		if out, code, _ := run(t, s, f, "echo after"); code != 0 || !strings.Contains(out, "after") {
			t.Fatalf("the next command: exit %d, %q", code, out)
		}
	})
	t.Run("memory bomb", func(t *testing.T) {
		// perl, not the test binary: under -race the binary's own shadow
		// memory does not fit the limit, whatever it allocates.
		out, code, explain := run(t, s, f, `perl -e '$x = "a" x (4096*1024*1024); print "allocated\n"'`)
		if code == 0 || strings.Contains(out, "allocated") {
			t.Fatalf("a 4 GiB allocation succeeded under the default limit: exit %d, %q", code, out)
		}
		if !strings.Contains(explain, fmt.Sprintf("memory limit (%d MiB", DefaultMemoryLimitMB)) {
			t.Errorf("explanation %q does not name the memory limit (output %.300q)", explain, out)
		}
	})
	t.Run("within the limits", func(t *testing.T) {
		out, code, _ := run(t, s, f, `perl -e '$x = "a" x (64*1024*1024); print "allocated 64 MiB\n"' && ulimit -u && ulimit -d`)
		want := fmt.Sprintf("\n%d\n%d", MinProcessLimit, DefaultMemoryLimitMB<<10)
		if code != 0 || !strings.Contains(out, "allocated 64 MiB") || !strings.Contains(out, want) {
			t.Errorf("exit %d, output %q; want the allocation and the limits %q", code, out, want)
		}
	})
}

// TestSandboxShmIsPrivate: what a command leaves in /dev/shm is gone for
// the next command and was never on the host's.
func TestSandboxShmIsPrivate(t *testing.T) {
	f := newFixture(t)
	s := newSandbox(t, f, Settings{})
	name := "agent-lsp-shm-test-" + f.secret
	if out, code, _ := run(t, s, f, "echo left > /dev/shm/"+name+" && cat /dev/shm/"+name); code != 0 || !strings.Contains(out, "left") {
		t.Fatalf("writing /dev/shm: exit %d, %q", code, out)
	}
	if _, err := os.Stat("/dev/shm/" + name); err == nil {
		os.Remove("/dev/shm/" + name)
		t.Fatal("the command's /dev/shm file is on the host's /dev/shm")
	}
	if out, code, _ := run(t, s, f, "cat /dev/shm/"+name); code == 0 {
		t.Fatalf("the next command read what the last left in /dev/shm: %q", out)
	}
}

// countProcesses counts the processes whose command line holds marker.
func countProcesses(marker string) int {
	n := 0
	cmdlines, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range cmdlines {
		if b, err := os.ReadFile(p); err == nil && bytes.Contains(b, []byte(marker)) {
			n++
		}
	}
	return n
}

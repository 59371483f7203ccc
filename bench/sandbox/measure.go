package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"time"

	"github.com/agent-lsp/agent-lsp/tools/sandbox"
)

// timing is one variant's start-to-exit times of `bash -c true`.
type timing struct {
	MedianMS float64 `json:"medianMs"`
	P90MS    float64 `json:"p90Ms"`
}

// result is one account's measurement.
type result struct {
	Account string  `json:"account"`
	UID     int     `json:"uid"`
	Status  string  `json:"status"` // the sandbox's own summary: namespaces or not
	Runs    int     `json:"runs"`
	Plain   timing  `json:"plain"`
	Ours    timing  `json:"ours"`
	Bwrap   *timing `json:"bwrap,omitempty"` // nil: bwrap missing or refused
	NoBwrap string  `json:"noBwrap,omitempty"`
	// EmptyHome and BigHome are ours with $HOME an empty directory and
	// one of homeEntries entries beside the usual secret stores: the
	// sandbox's cost must not grow with the home.
	EmptyHome timing `json:"emptyHome"`
	BigHome   timing `json:"bigHome"`
}

// quietDir is where the homes go: /var/tmp, which little else uses, when
// it is there.
func quietDir() string {
	if fi, err := os.Stat("/var/tmp"); err == nil && fi.IsDir() {
		return "/var/tmp"
	}
	return ""
}

// homeEntries is the size of the big home.
const homeEntries = 1000

// makeHome creates a home under base with n entries (half directories,
// half files) and the secret stores a user's home has, which the sandbox
// splits the home around.
func makeHome(base string, n int) (string, error) {
	home, err := os.MkdirTemp(base, "home-")
	if err != nil {
		return "", err
	}
	for _, d := range []string{".ssh", ".config/gh", ".local/share/keyrings", ".aws"} {
		if n == 0 {
			break
		}
		if err := os.MkdirAll(filepath.Join(home, d), 0o700); err != nil {
			return "", err
		}
	}
	for i := range n {
		p := filepath.Join(home, fmt.Sprintf("entry-%04d", i))
		if i%2 == 0 {
			err = os.Mkdir(p, 0o755)
		} else {
			err = os.WriteFile(p, nil, 0o644)
		}
		if err != nil {
			return "", err
		}
	}
	return home, os.Chmod(home, 0o755)
}

// variant is one way to start the command.
type variant struct {
	name string
	run  func() error
}

// measure times n commands of each variant as the current user,
// interleaved (plain, ours, bwrap, plain, ...) so that a change in the
// machine's load touches every variant alike.
func measure(n int) (result, error) {
	res := result{UID: os.Getuid(), Runs: n, Account: strconv.Itoa(os.Getuid())}
	if u, err := user.Current(); err == nil {
		res.Account = u.Username
	}
	base, err := os.MkdirTemp("", "sandbox-bench-")
	if err != nil {
		return res, err
	}
	defer os.RemoveAll(base)
	ws := filepath.Join(base, "ws")
	if err := os.Mkdir(ws, 0o755); err != nil {
		return res, err
	}
	// The sandbox's per-workspace build caches go under the cache home:
	// this run's own, not one more directory in the user's ~/.cache.
	if err := os.Setenv("XDG_CACHE_HOME", filepath.Join(base, "cache")); err != nil {
		return res, err
	}

	plain, err := sandbox.New(sandbox.Settings{ForceUnavailable: true}, []string{ws})
	if err != nil {
		return res, err
	}
	defer plain.Close()
	ours, err := sandbox.New(sandbox.Settings{}, []string{ws})
	if err != nil {
		return res, err
	}
	defer ours.Close()
	res.Status = ours.Status().Summary()
	if !ours.Status().Active {
		return res, fmt.Errorf("the sandbox is not available here: %s", res.Status)
	}
	variants := []variant{{"plain", through(plain, ws)}, {"agent-lsp", through(ours, ws)}}
	// The homes lie in a quiet directory: the sandbox splits every
	// directory above a secret store, and /tmp changes all the time on a
	// shared machine (its rules are then computed again).
	homes, err := os.MkdirTemp(quietDir(), "sandbox-bench-homes-")
	if err != nil {
		return res, err
	}
	defer os.RemoveAll(homes)
	for _, size := range []int{0, homeEntries} {
		home, err := makeHome(homes, size)
		if err != nil {
			return res, err
		}
		box, err := sandbox.New(sandbox.Settings{Home: home}, []string{ws})
		if err != nil {
			return res, err
		}
		defer box.Close()
		variants = append(variants, variant{fmt.Sprintf("agent-lsp, home of %d entries", size), through(box, ws)})
	}
	if bw, err := bubblewrap(ws); err != nil {
		res.NoBwrap = err.Error()
	} else {
		variants = append(variants, variant{"bubblewrap", bw})
	}
	times := make([][]time.Duration, len(variants))
	for range n {
		for i, v := range variants {
			start := time.Now()
			if err := v.run(); err != nil {
				return res, fmt.Errorf("%s: %w", v.name, err)
			}
			times[i] = append(times[i], time.Since(start))
		}
	}
	res.Plain, res.Ours = summarize(times[0]), summarize(times[1])
	res.EmptyHome, res.BigHome = summarize(times[2]), summarize(times[3])
	if len(variants) > 4 {
		bw := summarize(times[4])
		res.Bwrap = &bw
	}
	return res, nil
}

// through runs the command through a sandbox as the agent's runner does:
// started and waited for on one locked thread (Pdeathsig), released once
// started (for an ordinary user, release writes the command's user
// namespace maps, which its launcher waits for).
func through(s *sandbox.Sandbox, ws string) func() error {
	return func() error {
		cmd, release, err := s.Command("true", ws, os.Environ())
		if err != nil {
			return err
		}
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		err = cmd.Start()
		release()
		if err != nil {
			return err
		}
		if err := cmd.Wait(); err != nil {
			return fmt.Errorf("%w: %s", err, out.Bytes())
		}
		return nil
	}
}

// bubblewrap runs the command under bwrap with the namespaces our sandbox
// makes (user, mount, PID, network, IPC), the root read-only and the
// workspace writable; it fails when bwrap is missing or cannot make
// them here (tried once).
func bubblewrap(ws string) (func() error, error) {
	bwrap, err := exec.LookPath("bwrap")
	if err != nil {
		return nil, fmt.Errorf("bwrap not found (apt-get install bubblewrap; run.sh does)")
	}
	run := func() error {
		cmd := exec.Command(bwrap, "--unshare-user", "--unshare-pid", "--unshare-net", "--unshare-ipc", "--die-with-parent",
			"--ro-bind", "/", "/", "--bind", ws, ws, "--proc", "/proc", "--dev", "/dev", "--chdir", ws,
			"bash", "-c", "true")
		if b, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("%w: %s", err, b)
		}
		return nil
	}
	if err := run(); err != nil {
		return nil, fmt.Errorf("bwrap refused: %v", err)
	}
	return run, nil
}

func summarize(times []time.Duration) timing {
	slices.Sort(times)
	return timing{MedianMS: ms(times[len(times)/2]), P90MS: ms(times[len(times)*9/10])}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

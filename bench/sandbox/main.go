// Command sandbox-bench measures what the run_bash sandbox adds to one
// command's start, against bubblewrap (the sandbox Codex and Claude Code
// use on Linux) with the same namespaces in the same run: `bash -c true`
// plain, through our launcher (Landlock + user, mount, PID, network and
// IPC namespaces where the machine allows them) and through bwrap, and
// ours again with $HOME an empty directory and one of 1,000 entries (the
// sandbox's cost must not grow with the home: ratio ≤ 1.2). It
// measures as the user who runs it and, run as root, again as an ordinary
// account (-user, through setpriv), and prints one row per account with
// the medians, each sandbox's cost over plain and the ratio.
//
// Like agent-lsp, this binary is its own sandbox launcher (sandbox.Main)
// and makes itself non-dumpable at start (procenv.Protect): what an
// ordinary user's agent can set up depends on it.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/user"
	"strings"
	"time"

	"github.com/agent-lsp/agent-lsp/tools/procenv"
	"github.com/agent-lsp/agent-lsp/tools/sandbox"
)

func main() {
	sandbox.Main()
	if err := procenv.Protect(); err != nil {
		fmt.Fprintln(os.Stderr, "sandbox-bench: protecting the process as agent-lsp does:", err)
		os.Exit(1)
	}
	n := flag.Int("n", 200, "commands per variant")
	account := flag.String("user", defaultUser(), "run as root: measure again as this ordinary account (\"\": root only)")
	asJSON := flag.Bool("json", false, "print this account's result as JSON (the run as the other account)")
	flag.Parse()
	if err := run(*n, *account, *asJSON, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "sandbox-bench:", err)
		os.Exit(1)
	}
}

// defaultUser is the account the tests use (scripts/ensure-test-user).
func defaultUser() string {
	if u := os.Getenv("AGENT_LSP_TEST_USER"); u != "" {
		return u
	}
	return "nobody"
}

func run(n int, account string, asJSON bool, out io.Writer) error {
	mine, err := measure(n)
	if err != nil {
		return err
	}
	if asJSON {
		return json.NewEncoder(out).Encode(mine)
	}
	results := []result{mine}
	if os.Getuid() == 0 && account != "" {
		other, err := measureAs(account, n)
		if err != nil {
			return fmt.Errorf("as %s: %w", account, err)
		}
		results = append(results, other)
	}
	report(out, results)
	return nil
}

// measureAs runs this binary again as account (setpriv) with -json.
func measureAs(account string, n int) (result, error) {
	u, err := user.Lookup(account)
	if err != nil {
		return result{}, err
	}
	if u.Uid == "0" {
		return result{}, fmt.Errorf("%s is root, not an ordinary account", account)
	}
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		return result{}, fmt.Errorf("setpriv (util-linux) is needed to switch users: %w", err)
	}
	self, err := os.Executable()
	if err != nil {
		return result{}, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, setpriv, "--reuid="+u.Uid, "--regid="+u.Gid, "--clear-groups", "--",
		self, "-json", "-n", fmt.Sprint(n))
	cmd.Dir = "/"
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + u.HomeDir, "TMPDIR=/tmp", "LANG=C.UTF-8"}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	b, err := cmd.Output()
	if err != nil {
		hint := ""
		if cmd.ProcessState != nil && cmd.ProcessState.ExitCode() >= 126 { // setpriv could not exec it
			hint = fmt.Sprintf(" (is %s in a directory %s can execute?)", self, account)
		}
		return result{}, fmt.Errorf("%v%s\n%s", err, hint, stderr.String())
	}
	var res result
	if err := json.Unmarshal(b, &res); err != nil {
		return result{}, fmt.Errorf("its answer %q: %w", b, err)
	}
	return res, nil
}

// report prints the table: per account, the medians and the costs over
// plain, then the ratio of the whole command, agent-lsp over bwrap.
func report(out io.Writer, results []result) {
	fmt.Fprintf(out, "start-up of `bash -c true` per command, median of %d runs each, variants interleaved\n\n", results[0].Runs)
	for _, r := range results {
		fmt.Fprintf(out, "%-22s %s\n", fmt.Sprintf("%s (uid %d):", r.Account, r.UID), r.Status)
	}
	fmt.Fprintf(out, "\n%-22s %9s %10s %11s %15s %11s %16s\n", "account", "plain", "agent-lsp", "bubblewrap", "agent-lsp cost", "bwrap cost", "agent-lsp/bwrap")
	for _, r := range results {
		row := fmt.Sprintf("%-22s %6.2f ms %7.2f ms", fmt.Sprintf("%s (uid %d)", r.Account, r.UID), r.Plain.MedianMS, r.Ours.MedianMS)
		if r.Bwrap == nil {
			fmt.Fprintf(out, "%s %11s %+12.2f ms   (%s)\n", row, "-", r.Ours.MedianMS-r.Plain.MedianMS, r.NoBwrap)
			continue
		}
		note := ""
		if !strings.Contains(r.Status, ", namespaces)") {
			note = "  (no namespaces here: Landlock alone, not like for like)"
		}
		fmt.Fprintf(out, "%s %8.2f ms %+12.2f ms %+8.2f ms %15.2fx%s\n", row, r.Bwrap.MedianMS,
			r.Ours.MedianMS-r.Plain.MedianMS, r.Bwrap.MedianMS-r.Plain.MedianMS, r.Ours.MedianMS/r.Bwrap.MedianMS, note)
	}
	fmt.Fprintf(out, "\n%-22s %12s %14s %22s %14s\n", "$HOME", "empty", fmt.Sprintf("%d entries", homeEntries), "cost empty → big", "ratio (≤ 1.2)")
	for _, r := range results {
		fmt.Fprintf(out, "%-22s %9.2f ms %11.2f ms %+12.2f → %+6.2f ms %13.3fx\n", fmt.Sprintf("%s (uid %d)", r.Account, r.UID),
			r.EmptyHome.MedianMS, r.BigHome.MedianMS, r.EmptyHome.MedianMS-r.Plain.MedianMS, r.BigHome.MedianMS-r.Plain.MedianMS,
			r.BigHome.MedianMS/r.EmptyHome.MedianMS)
	}
	fmt.Fprintln(out, "\n(cost: the variant's median minus plain's; budget 10 ms. p90s:")
	for _, r := range results {
		line := fmt.Sprintf("  %s: plain %.2f, agent-lsp %.2f", r.Account, r.Plain.P90MS, r.Ours.P90MS)
		if r.Bwrap != nil {
			line += fmt.Sprintf(", bubblewrap %.2f", r.Bwrap.P90MS)
		}
		fmt.Fprintln(out, line+" ms")
	}
	fmt.Fprintln(out, ")")
}

// Command grep-bench compares the grep tool's engine (tools.Search) with
// ripgrep on the same tree and patterns: same match count required, wall
// time ratio reported. Both run as child processes so process start-up is
// paid on both sides.
//
// Both sides count matching lines, honour .gitignore files (also outside a
// git repository), search hidden files, do not follow symlinks and skip
// binary files; see run.sh for the ripgrep flags that align it.
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/agent-lsp/agent-lsp/tools"
)

// rgArgs makes ripgrep use the grep tool's rules.
var rgArgs = []string{
	"--no-config",         // no user config file
	"--count",             // matching lines per file, as SearchStats.MatchedLines
	"--no-heading",        // "path:count" lines
	"--hidden",            // we search dotfiles too (only .git is skipped)
	"--no-require-git",    // honour .gitignore outside a git repository, as we do
	"--no-ignore-global",  // we do not read core.excludesFile
	"--no-ignore-dot",     // we do not read .ignore / .rgignore
	"--no-ignore-parent",  // we read .gitignore from the searched dir down only
	"--no-ignore-exclude", // .git/info/exclude: none in the tree searched here
	"--no-messages",
}

func main() {
	dir := flag.String("dir", "", "tree to search (required)")
	corpus := flag.String("corpus", "goroot", "which patterns: goroot (11) or node_modules (1)")
	base := flag.String("base", "", "another grep-bench binary (an older build) timed in the same rotation, for before/after")
	makeNM := flag.Bool("make-node-modules", false, "write the node_modules corpus into -dir and exit")
	runs := flag.Int("runs", 9, "timed runs per tool and pattern (median reported)")
	rg := flag.String("rg", "rg", "ripgrep binary")
	one := flag.String("one", "", "internal: search for this pattern once and print the count")
	flag.Parse()
	if *dir == "" {
		fmt.Fprintln(os.Stderr, "grep-bench: -dir is required")
		os.Exit(2)
	}
	if *makeNM {
		if err := makeNodeModules(*dir); err != nil {
			fmt.Fprintln(os.Stderr, "grep-bench:", err)
			os.Exit(1)
		}
		return
	}
	patterns := gorootPatterns
	if *corpus == "node_modules" {
		patterns = nodeModulesPatterns
	}
	if *one != "" {
		stats, err := tools.Search(context.Background(), *dir, tools.SearchOptions{Pattern: *one})
		if err != nil {
			fmt.Fprintln(os.Stderr, "grep-bench:", err)
			os.Exit(1)
		}
		fmt.Fprintln(os.Stdout, stats.MatchedLines)
		return
	}
	if err := compare(os.Stdout, *dir, *rg, *base, *runs, patterns); err != nil {
		fmt.Fprintln(os.Stderr, "grep-bench:", err)
		os.Exit(1)
	}
}

// compare writes the report table to w.
func compare(w io.Writer, dir, rg, base string, runs int, patterns []string) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "tree: %s; %d runs each, alternating; median wall and CPU (user+sys) time\n", dir, runs)
	fmt.Fprintf(w, "speed = rg time / ours time: 1.00 or more means at least as fast as ripgrep\n")
	fmt.Fprintf(w, "%-24s %8s %8s %6s   %8s %8s %6s   %7s %7s\n",
		"pattern", "ours ms", "rg ms", "speed", "ours cpu", "rg cpu", "speed", "ours n", "rg n")
	var mismatch []string
	var sumOurs, sumRg, sumOursCPU, sumRgCPU, sumBase, sumBaseCPU float64
	for _, p := range patterns {
		ours := side{name: "ours", path: self, args: []string{"-dir", dir, "-one", p}, parse: parseOne}
		theirs := side{name: "ripgrep", path: rg, args: append(append([]string(nil), rgArgs...), "-e", p, dir), parse: sumCounts}
		before := side{name: "base", path: base, args: ours.args, parse: parseOne}
		sides := []*side{&ours, &theirs}
		if base != "" {
			sides = append(sides, &before)
		}
		// One untimed run each warms the page cache; then they
		// alternate, so a burst of load elsewhere hits all alike.
		for i := 0; i <= runs; i++ {
			for _, s := range sides {
				if err := s.run(i > 0); err != nil {
					return fmt.Errorf("%s, %q: %w", s.name, p, err)
				}
			}
		}
		ow, oc := ours.medians()
		tw, tc := theirs.medians()
		fmt.Fprintf(w, "%-24s %8.1f %8.1f %6.2f   %8.1f %8.1f %6.2f   %7d %7d\n",
			p, ow, tw, tw/ow, oc, tc, tc/oc, ours.count, theirs.count)
		sumOurs, sumRg, sumOursCPU, sumRgCPU = sumOurs+ow, sumRg+tw, sumOursCPU+oc, sumRgCPU+tc
		if base != "" {
			bw, bc := before.medians()
			fmt.Fprintf(w, "%-24s %8.1f %8s %6.2f   %8.1f %8s %6.2f   %7d\n", "  base (before)", bw, "", tw/bw, bc, "", tc/bc, before.count)
			sumBase, sumBaseCPU = sumBase+bw, sumBaseCPU+bc
		}
		if ours.count != theirs.count || (base != "" && before.count != theirs.count) {
			mismatch = append(mismatch, p)
		}
	}
	fmt.Fprintf(w, "%-24s %8.1f %8.1f %6.2f   %8.1f %8.1f %6.2f\n",
		fmt.Sprintf("TOTAL (%d patterns)", len(patterns)), sumOurs, sumRg, sumRg/sumOurs, sumOursCPU, sumRgCPU, sumRgCPU/sumOursCPU)
	if base != "" {
		fmt.Fprintf(w, "%-24s %8.1f %8s %6.2f   %8.1f %8s %6.2f\n", "  base TOTAL", sumBase, "", sumRg/sumBase, sumBaseCPU, "", sumRgCPU/sumBaseCPU)
	}
	if len(mismatch) > 0 {
		return fmt.Errorf("match counts differ for %q", mismatch)
	}
	return nil
}

// side is one tool under test and its measurements.
type side struct {
	name      string
	path      string
	args      []string
	parse     func([]byte) (int, error)
	count     int
	counted   bool
	wall, cpu []float64 // ms
}

// run runs the command once, checks its count against earlier runs and,
// when timed, records its wall and CPU time.
func (s *side) run(timed bool) error {
	c := exec.Command(s.path, s.args...)
	var out, errOut bytes.Buffer
	c.Stdout, c.Stderr = &out, &errOut
	start := time.Now()
	err := c.Run()
	elapsed := time.Since(start)
	var exit *exec.ExitError
	// ripgrep exits 1 when nothing matched: not a failure here.
	if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 1) {
		return fmt.Errorf("%v: %s", err, errOut.String())
	}
	n, err := s.parse(out.Bytes())
	if err != nil {
		return err
	}
	if s.counted && n != s.count {
		return fmt.Errorf("count changed between runs: %d then %d", s.count, n)
	}
	s.count, s.counted = n, true
	if timed {
		s.wall = append(s.wall, ms(elapsed))
		s.cpu = append(s.cpu, ms(c.ProcessState.UserTime()+c.ProcessState.SystemTime()))
	}
	return nil
}

func (s *side) medians() (wall, cpu float64) { return median(s.wall), median(s.cpu) }

func median(xs []float64) float64 {
	xs = slices.Clone(xs)
	slices.Sort(xs)
	return xs[len(xs)/2]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func parseOne(out []byte) (int, error) {
	return strconv.Atoi(strings.TrimSpace(string(out)))
}

// sumCounts adds up ripgrep's "path:count" lines.
func sumCounts(out []byte) (int, error) {
	total := 0
	for line := range strings.Lines(string(out)) {
		line = strings.TrimSpace(line)
		i := strings.LastIndexByte(line, ':')
		if i < 0 {
			return 0, fmt.Errorf("unexpected ripgrep output line %q", line)
		}
		n, err := strconv.Atoi(line[i+1:])
		if err != nil {
			return 0, fmt.Errorf("unexpected ripgrep output line %q", line)
		}
		total += n
	}
	return total, nil
}

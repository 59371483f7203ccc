package tools

import (
	"bytes"
	"errors"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// TestSearchCountsAsRipgrep counts matching lines in parts of GOROOT with
// Search and with ripgrep (when installed) for the benchmark's patterns and
// for ones each prefilter shape handles: the two must agree line for line,
// so a faster candidate check cannot drop or add a match. Patterns avoid
// \b, \w and \s, which are Unicode-aware in ripgrep and ASCII in Go.
func TestSearchCountsAsRipgrep(t *testing.T) {
	rg, err := exec.LookPath("rg")
	if err != nil {
		t.Skip("ripgrep (rg) not installed: apt-get install -y ripgrep")
	}
	patterns := []string{
		// bench/grep's eleven
		`func main`, `err != nil \{`, `(?i)deadline`, `TODO`, `Copyright 20[0-9][0-9]`, `fmt\.Errorf\(`,
		`^import \(`, `[A-Z][a-z]+Handler`, `sync\.(Mutex|RWMutex)`, `(?i)unicode`, `0x[0-9a-f]{8}`,
		// a literal prefix and its rest, anchors, folds, no literal at all
		`0x[0-9A-F]{2}`, `^func \(`, `(?m)^\t+return nil$`, `nil \{$`, `return (nil|err)`, `(?i)KELVIN`,
		`(?i)mask`, `Regexp[A-Z]`, `[0-9]{6}`, `^$`, `\{$`, `re(?i)gexp`, `Fold[a-z]+\(`, `"[a-z]+"`,
	}
	root := runtime.GOROOT()
	for _, dir := range []string{"src/regexp", "src/unicode", "src/strconv", "src/sync"} {
		dir = filepath.Join(root, dir)
		for _, p := range patterns {
			st, err := Search(t.Context(), dir, SearchOptions{Pattern: p})
			if err != nil {
				t.Fatalf("%q in %s: %v", p, dir, err)
			}
			want := ripgrepCount(t, rg, dir, p)
			if st.MatchedLines != want {
				t.Errorf("%q in %s: %d matching lines, ripgrep %d", p, dir, st.MatchedLines, want)
			}
		}
	}
}

// ripgrepCount is ripgrep's count of matching lines under the grep tool's
// rules (bench/grep's flags).
func ripgrepCount(t *testing.T, rg, dir, pattern string) int {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), rg, "--no-config", "--count", "--no-heading", "--hidden", "--no-require-git",
		"--no-ignore-global", "--no-ignore-dot", "--no-ignore-parent", "--no-ignore-exclude", "--no-messages", "-e", pattern, dir)
	out, err := cmd.Output()
	var exit *exec.ExitError
	if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 1) { // 1: nothing matched
		t.Fatalf("rg %q: %v", pattern, err)
	}
	total := 0
	for line := range strings.Lines(string(bytes.TrimSpace(out))) {
		n, err := strconv.Atoi(strings.TrimSpace(line[strings.LastIndexByte(line, ':')+1:]))
		if err != nil {
			t.Fatalf("rg output line %q", line)
		}
		total += n
	}
	return total
}

package main

import (
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"testing"
)

// initAllocBudget bounds the allocations of every package's init in the
// real binary: paid at every start (the daemon's initialize, chat -p, a
// sandboxed command's launcher, which is this binary). 4,866 when it was
// set (libraries ~3,900 of them: goldmark's tables, jsonschema, gob);
// before, 10,551: six name patterns with counted repetitions ({0,127}
// compiles to 127 copies of its class), the credential formats and
// web_fetch's converter were built at init. Allocations, not time: the
// count does not depend on the machine's load.
const initAllocBudget = 6000

var initLine = regexp.MustCompile(`(?m)^init (\S+) @.* (\d+) allocs$`)

func TestInitAllocationsWithinBudget(t *testing.T) {
	cmd := exec.Command(agentBinary(t), "version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("agent-lsp version: %v\n%s", err, out)
	}
	total, worst, worstAllocs := 0, "", 0
	for _, m := range initLine.FindAllStringSubmatch(string(out), -1) {
		n, _ := strconv.Atoi(m[2])
		total += n
		if n > worstAllocs {
			worst, worstAllocs = m[1], n
		}
	}
	if total == 0 {
		t.Fatalf("no init lines in GODEBUG=inittrace=1 output:\n%s", out)
	}
	if total > initAllocBudget {
		t.Errorf("package inits made %d allocations, budget %d; the most: %s (%d). Build expensive values at first use (permission.LazyRegexp, sync.OnceValue)",
			total, initAllocBudget, worst, worstAllocs)
	}
}

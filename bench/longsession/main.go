// Command longsession measures a long session: -rounds model rounds, each
// asking for a read_file whose result is about 4 KB, with the default
// context budget and without one (a budget no request reaches: "no
// budget" has no spelling of its own, Config.Budget 0 is the default).
//
// The agent runs in this process (agent.Session, the real HTTP provider
// and tools, a session store on disk), because one prompt of the binary
// stops at 50 rounds; the fake model runs in a child process (this binary
// with -serve) so that its work on requests growing to megabytes is in
// neither the agent's CPU time nor its heap. Printed per setting: the
// agent's CPU per round (getrusage of this process between two round ends)
// and its wall-clock overhead per round (from the fake's answer flushed to
// the next request read, summary calls' own answer time excluded), at round
// 10 and round 200, and their ratio (goal: within 2x); the bytes uploaded;
// the compactions; and the cost of the same token counts at DeepSeek's and
// Anthropic's prices with the fake's simulated prefix cache.
//
//	go run ./bench/longsession [-rounds 200] [-budgets default,none]
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"go.uber.org/zap"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/permission"
	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/provider/openai"
	"github.com/agent-lsp/agent-lsp/tools"
)

// model is the session's model: DeepSeek's 1M-token window, where the
// default budget matters most.
const model = "deepseek-flash"

// noBudget is "no budget": more tokens than any request of the run holds
// (the same as --budget 1000000000).
const noBudget = 1_000_000_000

func main() {
	rounds := flag.Int("rounds", 200, "tool rounds of the session")
	budgets := flag.String("budgets", "default,none", "comma-separated settings: default, none, or a budget in tokens")
	n := flag.Int("n", 5, "sessions per setting; a round's time is the least over its runs")
	serveFlag := flag.Bool("serve", false, "run the fake model (internal)")
	flag.Parse()
	if *serveFlag {
		if err := serve(*rounds); err != nil {
			fmt.Fprintln(os.Stderr, "bench/longsession:", err)
			os.Exit(1)
		}
		return
	}
	var results []result
	for _, b := range strings.Split(*budgets, ",") {
		s, err := parseSetting(strings.TrimSpace(b))
		if err != nil {
			fmt.Fprintln(os.Stderr, "bench/longsession:", err)
			os.Exit(2)
		}
		var runs []result
		for range max(*n, 1) {
			r, err := run(s, *rounds)
			if err != nil {
				fmt.Fprintln(os.Stderr, "bench/longsession:", err)
				os.Exit(1)
			}
			runs = append(runs, r)
		}
		results = append(results, bestRuns(runs))
	}
	report(os.Stdout, results, *rounds, max(*n, 1))
}

// setting is one budget to run with.
type setting struct {
	label  string
	budget int // Config.Budget
}

func parseSetting(s string) (setting, error) {
	switch s {
	case "default":
		return setting{fmt.Sprintf("default (%s)", tokens(agent.DefaultBudget(model))), 0}, nil
	case "none":
		return setting{"no budget", noBudget}, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 {
		return setting{}, fmt.Errorf("budget %q: want default, none or a positive number of tokens", s)
	}
	return setting{"budget " + tokens(n), n}, nil
}

// result is one setting's run.
type result struct {
	setting
	cpu         []time.Duration // per round r (index r-1): CPU between round end r and r+1
	wall        []time.Duration // per round r: wall overhead (overheads of records)
	records     []record        // the fake's view of every request
	compactions int
	resultBytes int // tool result bytes, all rounds
}

func run(s setting, rounds int) (result, error) {
	res := result{setting: s}
	work, err := os.MkdirTemp("", "bench-longsession-")
	if err != nil {
		return res, err
	}
	defer os.RemoveAll(work)
	root := filepath.Join(work, "ws")
	if err := writeFiles(root, rounds); err != nil {
		return res, err
	}
	url, stop, err := startFake(rounds)
	if err != nil {
		return res, err
	}
	defer stop()

	sess, err := newSession(root, filepath.Join(work, "state"), url, s.budget, rounds)
	if err != nil {
		return res, err
	}
	var ends []time.Duration
	l := agent.ListenerFunc(func(e agent.Event) {
		switch e.Kind {
		case agent.EventRoundEnd:
			ends = append(ends, cpuTime())
		case agent.EventCompacted:
			res.compactions++
		case agent.EventToolResult:
			res.resultBytes += len(e.Output)
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	o := sess.Prompt(ctx, fmt.Sprintf("Read %s to %s, one file per round.", fileName(0), fileName(rounds-1)), l)
	if o.Err != nil || o.StopReason != agent.StopEndTurn {
		return res, fmt.Errorf("%s: the session ended %s after %d rounds: %v", s.label, o.StopReason, o.Rounds, o.Err)
	}
	for i := 1; i < len(ends); i++ {
		res.cpu = append(res.cpu, ends[i]-ends[i-1])
	}
	res.records, err = fetchStats(url)
	res.wall = overheads(res.records)
	return res, err
}

// bestRuns is the first run with each round's CPU and wall overhead
// replaced by its least value over the runs: the same work in the same
// round only ever takes longer for outside reasons (another process on a
// shared core, a frequency drop), so the least is the round's own cost.
// The token and byte counts are the same in every run.
func bestRuns(runs []result) result {
	r := runs[0]
	med := func(get func(result) []time.Duration) []time.Duration {
		out := make([]time.Duration, len(get(r)))
		for i := range out {
			v := make([]time.Duration, 0, len(runs))
			for _, x := range runs {
				if i < len(get(x)) {
					v = append(v, get(x)[i])
				}
			}
			slices.Sort(v)
			out[i] = v[0]
		}
		return out
	}
	r.cpu = med(func(x result) []time.Duration { return x.cpu })
	r.wall = med(func(x result) []time.Duration { return x.wall })
	return r
}

func newSession(root, state, url string, budget, rounds int) (*agent.Session, error) {
	p, err := provider.NewHTTP(provider.HTTPOptions{Dialect: openai.NewDialect(), BaseURL: url, APIKey: "bench"})
	if err != nil {
		return nil, err
	}
	ws, err := tools.NewWorkspace(root)
	if err != nil {
		return nil, err
	}
	reg := tools.NewRegistry()
	if err := tools.RegisterBuiltins(reg); err != nil {
		return nil, err
	}
	store, err := agent.NewStore(state, zap.NewNop())
	if err != nil {
		return nil, err
	}
	cfg := agent.Config{
		Provider: p, Model: model, MaxTokens: 4096, Tools: reg,
		Env:       &tools.Env{Workspace: ws, Docs: &tools.DiskDocuments{Workspace: ws}},
		Gate:      permission.NewPolicy(permission.AutoApprover{}),
		MaxRounds: rounds + 10, Budget: budget, Store: store,
	}
	return agent.NewSession(cfg, agent.SystemPrompt(ws, "linux", "/bin/bash")), nil
}

func fileName(i int) string { return fmt.Sprintf("f%03d.txt", i) }

// writeFiles writes one file per round: 56 lines of 63 characters, which
// read_file returns with its line numbers as about 4 KB.
func writeFiles(root string, n int) error {
	if err := os.MkdirAll(root, 0o755); err != nil {
		return err
	}
	for i := range n {
		var b strings.Builder
		for l := range 56 {
			fmt.Fprintf(&b, "file %03d line %02d: the quick brown fox jumps over the lazy dog.\n", i, l)
		}
		if err := os.WriteFile(filepath.Join(root, fileName(i)), []byte(b.String()), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// startFake starts this binary as the fake model and returns its URL and
// the function that stops it.
func startFake(rounds int) (string, func(), error) {
	self, err := os.Executable()
	if err != nil {
		return "", nil, err
	}
	cmd := exec.Command(self, "-serve", "-rounds", strconv.Itoa(rounds))
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return "", nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return "", nil, err
	}
	if err := cmd.Start(); err != nil {
		return "", nil, fmt.Errorf("starting the fake model: %w", err)
	}
	stop := func() {
		_ = stdin.Close()
		_ = cmd.Wait()
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		_ = cmd.Process.Kill()
		stop()
		return "", nil, fmt.Errorf("the fake model did not start: %w", err)
	}
	return strings.TrimSpace(line), stop, nil
}

func fetchStats(url string) ([]record, error) {
	resp, err := http.Get(url + "/stats")
	if err != nil {
		return nil, fmt.Errorf("fake model stats: %w", err)
	}
	defer resp.Body.Close()
	var recs []record
	if err := json.NewDecoder(resp.Body).Decode(&recs); err != nil {
		return nil, fmt.Errorf("fake model stats: %w", err)
	}
	return recs, nil
}

// cpuTime is this process's user+system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func tokens(n int) string {
	switch {
	case n >= 1_000_000 && n%1_000_000 == 0:
		return fmt.Sprintf("%dM", n/1_000_000)
	case n >= 1000 && n%1000 == 0:
		return fmt.Sprintf("%dK", n/1000)
	}
	return strconv.Itoa(n)
}

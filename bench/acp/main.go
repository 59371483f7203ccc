// Command acp measures `agent-lsp acp`'s start-up: the time from spawning
// the agent to its initialize reply, and its resident memory once
// initialized and idle, each the median of -n runs. With -ref it measures
// another ACP agent (claude-code-acp) the same way in the same run and
// prints the ratio. run.sh builds the binary, installs the reference and
// also runs the first-chunk benchmark (firstchunk_test.go).
//
//	go run ./bench/acp -bin ./agent-lsp [-ref "node .../claude-code-acp/dist/index.js"] [-n 20]
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/agent-lsp/agent-lsp/bench/startup"
)

// settle is how long the agent is left alone after its initialize reply
// before its memory is read: long enough for start-up work to finish.
const settle = 300 * time.Millisecond

func main() {
	bin := flag.String("bin", "", "the agent-lsp binary (required)")
	ref := flag.String("ref", "", "the reference agent's command line, space-separated (optional)")
	refName := flag.String("ref-name", "claude-code-acp", "the reference's name in the table")
	n := flag.Int("n", 20, "runs per agent")
	flag.Parse()
	if *bin == "" {
		fmt.Fprintln(os.Stderr, "usage: acp -bin agent-lsp [-ref 'cmd args'] [-n 20]")
		os.Exit(2)
	}
	if err := run(*bin, strings.Fields(*ref), *refName, *n); err != nil {
		fmt.Fprintln(os.Stderr, "bench/acp:", err)
		os.Exit(1)
	}
}

func run(bin string, ref []string, refName string, n int) error {
	work, err := os.MkdirTemp("", "bench-acp-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	// Both agents get the caller's environment: neither needs a key to
	// answer initialize, and agent-lsp is told to want none.
	env := append(os.Environ(), "XDG_STATE_HOME="+work+"/state")
	agent, err := measure("agent-lsp acp", []string{bin, "acp", "--api-key-env", "none"}, work, env, n)
	if err != nil {
		return err
	}
	results := []startup.Result{agent}
	note := ""
	if len(ref) > 0 {
		r, err := measure(refName, ref, work, env, n)
		if err != nil {
			note = fmt.Sprintf("reference skipped: %s failed: %v", refName, err)
		} else {
			results = append(results, r)
		}
	} else {
		note = "reference skipped: no -ref (run.sh installs claude-code-acp with npm when it can)"
	}
	startup.Print(os.Stdout, results, n, startup.Rows{Spawn: "spawn → initialize reply", RSS: "idle RSS after initialize"}, note)
	return nil
}

// measure starts argv n times in dir with env.
func measure(name string, argv []string, dir string, env []string, n int) (startup.Result, error) {
	return startup.Measure(name, n, func() (time.Duration, int64, error) { return startOnce(argv, dir, env) })
}

// startOnce spawns the agent, initializes it as an editor with fs and
// terminal would, measures it, then closes its stdin and waits for it.
func startOnce(argv []string, dir string, env []string) (time.Duration, int64, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	start := time.Now()
	c, err := startAgent(argv, dir, env)
	if err != nil {
		return 0, 0, err
	}
	defer c.close()
	params := map[string]any{
		"protocolVersion": 1,
		"clientCapabilities": map[string]any{
			"fs": map[string]any{"readTextFile": true, "writeTextFile": true}, "terminal": true},
		"clientInfo": map[string]any{"name": "bench-acp", "version": "1"},
	}
	if _, err := c.call(ctx, "initialize", params); err != nil {
		return 0, 0, err
	}
	spawn := time.Since(start)
	time.Sleep(settle) // a measurement interval, not a wait for an event
	rss, err := treeRSS(c.cmd.Process.Pid)
	return spawn, rss, err
}

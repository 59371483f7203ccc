// Command lsp measures agent-lsp's start-up: the time from spawning the
// binary to its initialize response, and its resident memory once
// initialized and idle, each the median of -n runs. With -gopls it measures
// gopls the same way in the same run and prints the ratio. run.sh builds
// the binaries and also runs the relay benchmark (relay_test.go).
//
//	go run ./bench/lsp -bin ./agent-lsp [-gopls gopls] [-n 20]
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/agent-lsp/agent-lsp/bench/lspclient"
	"github.com/agent-lsp/agent-lsp/bench/startup"
)

// settle is how long the server is left alone after initialized before its
// memory is read: long enough for start-up work to finish, short enough
// that a language server's workspace load of a one-file module is done.
const settle = 300 * time.Millisecond

func main() {
	bin := flag.String("bin", "", "the agent-lsp binary (required)")
	gopls := flag.String("gopls", "", "the gopls binary, the reference (optional)")
	n := flag.Int("n", 20, "runs per server")
	flag.Parse()
	if *bin == "" {
		fmt.Fprintln(os.Stderr, "usage: lsp -bin agent-lsp [-gopls gopls] [-n 20]")
		os.Exit(2)
	}
	if err := run(*bin, *gopls, *n); err != nil {
		fmt.Fprintln(os.Stderr, "bench/lsp:", err)
		os.Exit(1)
	}
}

func run(bin, gopls string, n int) error {
	work, err := os.MkdirTemp("", "bench-lsp-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	// A one-file module, so that gopls has a workspace like any project.
	if err := os.WriteFile(filepath.Join(work, "go.mod"), []byte("module bench\n\ngo 1.22\n"), 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(work, "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o644); err != nil {
		return err
	}
	env := os.Environ()

	agent, err := measure("agent-lsp", []string{bin, "--api-key-env", "none", "--state-dir", filepath.Join(work, "state")}, work, env, n)
	if err != nil {
		return err
	}
	results := []startup.Result{agent}
	note := ""
	if gopls != "" {
		ref, err := measure(goplsVersion(gopls), []string{gopls, "serve"}, work, env, n)
		if err != nil {
			note = fmt.Sprintf("reference skipped: gopls failed: %v", err)
		} else {
			results = append(results, ref)
		}
	} else {
		note = "reference skipped: no gopls (run.sh installs it through the Go module proxy when it can)"
	}
	startup.Print(os.Stdout, results, n, startup.Rows{Spawn: "spawn → initialize response", RSS: "idle RSS after initialize", SpawnTarget: "≤ 8 ms (sandbox on)", RSSTarget: "< 30 MB"}, note)
	chat, err := measureChatP(bin, work, env, n)
	if err != nil {
		return err
	}
	line := fmt.Sprintf("chat -p, spawn → exit, answered by a local fake model (sandbox on), median of %d: %.1f ms (target ≤ 15 ms)", n, float64(chat.Microseconds())/1000)
	if len(results) == 2 {
		line += fmt.Sprintf("; %.3f× %s's spawn → initialize", float64(chat)/float64(results[1].Spawn), results[1].Name)
	}
	fmt.Println(line)
	return nil
}

// measure starts argv n times in dir with env.
func measure(name string, argv []string, dir string, env []string, n int) (startup.Result, error) {
	return startup.Measure(name, n, func() (time.Duration, int64, error) { return startOnce(argv, dir, env) })
}

// startOnce spawns the server, initializes it and measures it, then shuts
// it down.
func startOnce(argv []string, dir string, env []string) (time.Duration, int64, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	uri := "file://" + dir
	params := map[string]any{
		"processId": os.Getpid(), "rootUri": uri,
		"workspaceFolders": []map[string]any{{"uri": uri, "name": "bench"}},
		"capabilities": map[string]any{
			"workspace": map[string]any{"applyEdit": true, "workspaceEdit": map[string]any{"documentChanges": true}},
		},
	}
	start := time.Now()
	c, err := lspclient.Start(argv, lspclient.Options{Dir: dir, Env: env})
	if err != nil {
		return 0, 0, err
	}
	if _, err := c.Call(ctx, "initialize", params); err != nil {
		_ = c.Cmd.Process.Kill()
		_ = c.Cmd.Wait()
		return 0, 0, err
	}
	spawn := time.Since(start)
	if err := c.Notify("initialized", map[string]any{}); err != nil {
		return 0, 0, err
	}
	time.Sleep(settle)
	rss, rssErr := rssBytes(c.Cmd.Process.Pid)
	if err := c.Close(ctx); err != nil {
		return 0, 0, fmt.Errorf("shutting down: %w", err)
	}
	return spawn, rss, rssErr
}

func goplsVersion(gopls string) string {
	out, err := exec.Command(gopls, "version").Output()
	if err != nil {
		return "gopls"
	}
	for _, f := range strings.Fields(string(out)) {
		if strings.HasPrefix(f, "v") {
			return "gopls " + f
		}
	}
	return "gopls"
}

package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"time"

	"github.com/agent-lsp/agent-lsp/bench/procstat"
)

// runDaemon measures the edit through the daemon. One daemon per size, so
// that one size's leftovers are not the next one's idle: a warm-up prompt
// (first-use costs), the baseline prompt on a 1 KB file, then the edit.
func runDaemon(bin, dir string, size int, settle time.Duration) (sample, error) {
	ws := filepath.Join(dir, "ws")
	var small int
	for _, f := range []string{"warm.txt", "small.txt"} {
		var err error
		if small, err = writeFile(filepath.Join(ws, f), smallSize); err != nil {
			return sample{}, err
		}
	}
	bigSize, err := writeFile(filepath.Join(ws, "big.txt"), size)
	if err != nil {
		return sample{}, err
	}
	fake := &fakeModel{}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	argv := []string{bin, "--provider", "openai", "--base-url", srv.URL, "--api-key-env", "none", "--thinking=false",
		"--log-file", filepath.Join(dir, "daemon.log"), "--state-dir", filepath.Join(dir, "state")}
	c, err := startClient(argv, ws)
	if err != nil {
		return sample{}, err
	}
	s, runErr := driveDaemon(c, fake, ws, bigSize, small, settle)
	if err := c.close(); err != nil && runErr == nil {
		runErr = fmt.Errorf("daemon exit: %w", err)
	}
	return s, runErr
}

func driveDaemon(c *lspClient, fake *fakeModel, ws string, bigSize, small int, settle time.Duration) (sample, error) {
	var s sample
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	uri := "file://" + ws
	if _, err := c.Call(ctx, "initialize", map[string]any{
		"processId": os.Getpid(), "rootUri": uri,
		"workspaceFolders": []map[string]any{{"uri": uri, "name": "bench"}},
		"capabilities": map[string]any{
			"workspace": map[string]any{"applyEdit": true, "workspaceEdit": map[string]any{"documentChanges": true}},
		},
		"initializationOptions": map[string]any{"autoApprove": true},
	}); err != nil {
		return s, err
	}
	if err := c.Notify("initialized", map[string]any{}); err != nil {
		return s, err
	}
	pid := c.Pid()
	prompt := func(target string) error {
		fake.expect(target, func(i int) {
			if i == 1 {
				c.saveEdited()
			}
		})
		raw, err := c.Call(ctx, "agent/prompt", map[string]any{"prompt": "Change the marker in " + target + "."})
		if err != nil {
			return err
		}
		var res struct {
			StopReason string `json:"stopReason"`
		}
		if err := json.Unmarshal(raw, &res); err != nil {
			return err
		}
		if res.StopReason != "end_turn" {
			return fmt.Errorf("prompt on %s ended %q", target, res.StopReason)
		}
		if e := fake.lastToolError(); e != "" {
			return fmt.Errorf("edit_file of %s failed: %s", target, e)
		}
		if err := c.applyError(); err != nil {
			return err
		}
		return nil
	}
	around := func(target string) (time.Duration, error) {
		c0, err := procstat.CPUTime(pid)
		if err != nil {
			return 0, err
		}
		if err := prompt(target); err != nil {
			return 0, err
		}
		time.Sleep(settle) // the edit's after-work (store writes, GC) lands in the window
		c1, err := procstat.CPUTime(pid)
		return c1 - c0, err
	}
	if err := prompt("warm.txt"); err != nil {
		return s, fmt.Errorf("warm-up: %w", err)
	}
	base, err := around("small.txt")
	if err != nil {
		return s, fmt.Errorf("baseline: %w", err)
	}
	if s.idle, _, err = memOf(pid); err != nil {
		return s, err
	}
	if err := resetPeak(pid); err != nil {
		s.note = "peak since start-up (clear_refs: " + err.Error() + ")"
	}
	edit, err := around("big.txt")
	if err != nil {
		return s, fmt.Errorf("edit: %w", err)
	}
	s.cpu = edit - base
	if s.after, s.peak, err = memOf(pid); err != nil {
		return s, err
	}
	return s, errors.Join(checkEdited(filepath.Join(ws, "big.txt"), bigSize), checkEdited(filepath.Join(ws, "small.txt"), small))
}

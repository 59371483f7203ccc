package main

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/agent-lsp/agent-lsp/bench/lspclient"
)

// startRelayDaemon starts the daemon bin against the fake model at
// baseURL, initialized over a temporary workspace, with onNotify reading
// its notifications; the daemon is closed when the test ends, within
// timeout, as is the returned context.
func startRelayDaemon(t *testing.T, bin, baseURL string, timeout time.Duration, onNotify func(lspclient.Message, time.Time)) (*lspclient.Client, context.Context) {
	t.Helper()
	dir := t.TempDir()
	argv := []string{bin, "--provider", "openai", "--base-url", baseURL, "--api-key-env", "none",
		"--thinking=false", "--log-file", filepath.Join(dir, "agent-lsp.log"), "--state-dir", benchStateDir(t)}
	client, err := lspclient.Start(argv, lspclient.Options{Dir: dir, Env: os.Environ(), OnNotify: onNotify})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	t.Cleanup(func() {
		defer cancel()
		if err := client.Close(ctx); err != nil {
			t.Errorf("daemon: %v", err)
		}
	})
	if _, err := client.Call(ctx, "initialize", map[string]any{"processId": os.Getpid(), "rootUri": "file://" + dir,
		"capabilities": map[string]any{}}); err != nil {
		t.Fatal(err)
	}
	if err := client.Notify("initialized", map[string]any{}); err != nil {
		t.Fatal(err)
	}
	return client, ctx
}

// benchStateDir is a session store where a user's is, in the home
// directory, not in the temp dir: the store is hidden from sandboxed
// commands, and a hidden directory's every ancestor is granted entry by
// entry, so a store in a shared /tmp (2,190 entries on a busy machine)
// made the daemon's first sandbox rules 2,400 rules long, built twice
// while the first answer streamed. Removed when the test ends.
func benchStateDir(t *testing.T) string {
	t.Helper()
	base, err := os.UserCacheDir()
	if err != nil {
		return filepath.Join(t.TempDir(), "state")
	}
	if err := os.MkdirAll(filepath.Join(base, "agent-lsp-bench"), 0o700); err != nil {
		t.Fatal(err)
	}
	dir, err := os.MkdirTemp(filepath.Join(base, "agent-lsp-bench"), "state-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	return dir
}

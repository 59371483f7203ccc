package main

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// openSample is a big file opened in the editor, changed as a whole and
// closed, through the daemon: the frames an editor sends after an edit
// that replaces the buffer (didOpen, then a didChange with the whole text).
type openSample struct {
	idle   int64         // RSS before the didOpen
	peak   int64         // VmHWM from the didOpen to the didClose
	open   int64         // RSS -settle after the change, the file still open
	closed int64         // RSS when back within closedGoal of idle, or at closedWait
	back   time.Duration // from the didClose to that RSS
}

// closedGoal is how close to idle the daemon must come back once the file
// is closed, and closedWait how long it may take (issue 27: a minute).
const (
	closedGoal = 5 * mib
	closedWait = time.Minute
)

// runOpen measures the open file through one daemon of its own.
func runOpen(bin, dir string, size int, settle time.Duration) (openSample, error) {
	path := filepath.Join(dir, "ws", "big.txt")
	if _, err := writeFile(path, size); err != nil {
		return openSample{}, err
	}
	text, err := os.ReadFile(path)
	if err != nil {
		return openSample{}, err
	}
	srv := httptest.NewServer(&fakeModel{}) // never asked: no prompt is sent
	defer srv.Close()
	argv := []string{bin, "--provider", "openai", "--base-url", srv.URL, "--api-key-env", "none", "--thinking=false",
		"--log-file", filepath.Join(dir, "daemon.log"), "--state-dir", filepath.Join(dir, "state")}
	c, err := startClient(argv, filepath.Dir(path))
	if err != nil {
		return openSample{}, err
	}
	s, runErr := driveOpen(c, filepath.Dir(path), "file://"+path, string(text), settle)
	if err := c.close(); err != nil && runErr == nil {
		runErr = fmt.Errorf("daemon exit: %w", err)
	}
	return s, runErr
}

func driveOpen(c *lspClient, ws, uri, text string, settle time.Duration) (openSample, error) {
	var s openSample
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	root := "file://" + ws
	if _, err := c.Call(ctx, "initialize", map[string]any{"processId": os.Getpid(), "rootUri": root,
		"workspaceFolders": []map[string]any{{"uri": root, "name": "bench"}}, "capabilities": map[string]any{}}); err != nil {
		return s, err
	}
	if err := c.Notify("initialized", map[string]any{}); err != nil {
		return s, err
	}
	// handled returns once the daemon has handled every notification sent
	// before it: it serves them in order, and answers this call after them.
	handled := func() error {
		_, err := c.Call(ctx, "bench/handled", nil)
		if err == nil || !strings.Contains(err.Error(), "method not found") {
			return fmt.Errorf("bench/handled: %v, want method not found", err)
		}
		return nil
	}
	if err := handled(); err != nil {
		return s, err
	}
	time.Sleep(settle) // start-up's garbage is collected before idle is read
	pid := c.Pid()
	var err error
	if s.idle, _, err = memOf(pid); err != nil {
		return s, err
	}
	if err := resetPeak(pid); err != nil {
		return s, fmt.Errorf("clear_refs: %w", err)
	}
	edited := strings.Replace(text, markerOld, markerNew, 1)
	doc := map[string]any{"uri": uri, "languageId": "plaintext", "version": 1, "text": text}
	if err := c.Notify("textDocument/didOpen", map[string]any{"textDocument": doc}); err != nil {
		return s, err
	}
	if err := c.Notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uri, "version": 2},
		"contentChanges": []map[string]any{{"text": edited}}}); err != nil {
		return s, err
	}
	if err := handled(); err != nil {
		return s, err
	}
	time.Sleep(settle)
	if s.open, s.peak, err = memOf(pid); err != nil {
		return s, err
	}
	if err := c.Notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": uri}}); err != nil {
		return s, err
	}
	if err := handled(); err != nil {
		return s, err
	}
	closedAt := time.Now()
	for {
		// Polled: the daemon's memory going down is not an event it reports.
		rss, _, err := memOf(pid)
		if err != nil {
			return s, err
		}
		s.closed, s.back = rss, time.Since(closedAt)
		if rss-s.idle <= closedGoal || s.back >= closedWait {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if s.peak < s.open {
		return s, errors.New("VmHWM below VmRSS: clear_refs did not reset the peak")
	}
	return s, nil
}

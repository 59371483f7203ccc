package main

import (
	"bytes"
	"errors"
	"fmt"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"time"
)

// runChat measures the edit through `agent-lsp chat -p … --yes`: one
// process for the baseline (the 1 KB file) and one for the big file, each
// with the same settle while it waits for the model's last answer.
func runChat(bin, dir string, size int, settle time.Duration) (sample, error) {
	ws := filepath.Join(dir, "ws")
	small, err := writeFile(filepath.Join(ws, "small.txt"), smallSize)
	if err != nil {
		return sample{}, err
	}
	bigSize, err := writeFile(filepath.Join(ws, "big.txt"), size)
	if err != nil {
		return sample{}, err
	}
	fake := &fakeModel{}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	base, err := chatOnce(bin, dir, srv.URL, fake, "small.txt", settle)
	if err != nil {
		return sample{}, fmt.Errorf("baseline: %w", err)
	}
	s, err := chatOnce(bin, dir, srv.URL, fake, "big.txt", settle)
	if err != nil {
		return sample{}, err
	}
	s.cpu -= base.cpu
	return s, errors.Join(checkEdited(filepath.Join(ws, "big.txt"), bigSize), checkEdited(filepath.Join(ws, "small.txt"), small))
}

// chatOnce runs one one-shot prompt editing target. The fake model's hook
// reads the process: its idle RSS (and resets its peak) when the first
// request arrives, its peak and RSS -settle after the edit's result arrives.
func chatOnce(bin, dir, url string, fake *fakeModel, target string, settle time.Duration) (sample, error) {
	cmd := exec.Command(bin, "chat", "-p", "Change the marker in "+target+".", "--yes", "--no-color",
		"--provider", "openai", "--base-url", url, "--api-key-env", "none", "--thinking=false",
		"--dir", filepath.Join(dir, "ws"), "--state-dir", filepath.Join(dir, "state"),
		"--log-file", filepath.Join(dir, "chat.log"))
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	var (
		mu      sync.Mutex
		s       sample
		hookErr error
	)
	started := make(chan struct{})
	fake.expect(target, func(i int) {
		<-started
		pid := cmd.Process.Pid
		mu.Lock()
		defer mu.Unlock()
		var err error
		switch i {
		case 0:
			if s.idle, _, err = memOf(pid); err == nil {
				if perr := resetPeak(pid); perr != nil {
					s.note = "peak since start-up (clear_refs: " + perr.Error() + ")"
				}
			}
		case 1:
			time.Sleep(settle)
			s.after, s.peak, err = memOf(pid)
		}
		if err != nil && hookErr == nil {
			hookErr = err
		}
	})
	if err := cmd.Start(); err != nil {
		close(started)
		return s, err
	}
	close(started)
	if err := cmd.Wait(); err != nil {
		return s, fmt.Errorf("agent-lsp chat: %w\n%s", err, out.Bytes())
	}
	if e := fake.lastToolError(); e != "" {
		return s, fmt.Errorf("edit_file of %s failed: %s", target, e)
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		return s, fmt.Errorf("no rusage for the chat process")
	}
	mu.Lock()
	defer mu.Unlock()
	s.cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	return s, hookErr
}

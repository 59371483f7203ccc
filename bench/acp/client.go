package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// client is a minimal ACP client over an agent's stdio: newline-delimited
// JSON-RPC, responses matched by id, notifications handed to onNotify. It
// is the bench's own so that what is timed is the agent, not a client
// library's validation.
type client struct {
	cmd      *exec.Cmd
	stdin    io.WriteCloser
	mu       sync.Mutex
	nextID   int
	pending  map[int]chan message
	onNotify func(method string, params json.RawMessage, at time.Time)
	done     chan struct{} // closed when the reader ends
}

type message struct {
	ID     *json.RawMessage `json:"id,omitempty"`
	Method string           `json:"method,omitempty"`
	Params json.RawMessage  `json:"params,omitempty"`
	Result json.RawMessage  `json:"result,omitempty"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error,omitempty"`
}

// startAgent spawns argv with its stderr discarded (agents log there).
func startAgent(argv []string, dir string, env []string) (*client, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir, cmd.Env = dir, env
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", argv[0], err)
	}
	c := &client{cmd: cmd, stdin: stdin, pending: map[int]chan message{}, done: make(chan struct{})}
	go c.read(stdout)
	return c, nil
}

// read owns stdout until EOF: responses go to their caller, agent requests
// are refused (the bench's prompts need none), notifications to onNotify.
func (c *client) read(r io.Reader) {
	defer close(c.done)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		at := time.Now()
		var m message
		if json.Unmarshal(sc.Bytes(), &m) != nil {
			continue
		}
		switch {
		case m.Method != "" && m.ID != nil:
			_ = c.write(map[string]any{"jsonrpc": "2.0", "id": m.ID,
				"error": map[string]any{"code": -32601, "message": "the bench client serves no " + m.Method}})
		case m.Method != "":
			if c.onNotify != nil {
				c.onNotify(m.Method, m.Params, at)
			}
		case m.ID != nil:
			id, err := strconv.Atoi(string(*m.ID))
			if err != nil {
				continue
			}
			c.mu.Lock()
			ch := c.pending[id]
			delete(c.pending, id)
			c.mu.Unlock()
			if ch != nil {
				ch <- m
			}
		}
	}
}

func (c *client) write(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	_, err = c.stdin.Write(append(b, '\n'))
	return err
}

// call sends a request and waits for its result.
func (c *client) call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	ch := make(chan message, 1)
	c.mu.Lock()
	id := c.nextID
	c.nextID++
	c.pending[id] = ch
	c.mu.Unlock()
	if err := c.write(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params}); err != nil {
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	select {
	case m := <-ch:
		if m.Error != nil {
			return nil, fmt.Errorf("%s: error %d %s", method, m.Error.Code, m.Error.Message)
		}
		return m.Result, nil
	case <-c.done:
		return nil, fmt.Errorf("%s: the agent closed its stdout", method)
	case <-ctx.Done():
		return nil, fmt.Errorf("%s: %w", method, ctx.Err())
	}
}

// close ends the session as ACP does (stdin closed), then kills the agent's
// process group if it has not exited within 3 s.
func (c *client) close() {
	_ = c.stdin.Close()
	exited := make(chan struct{})
	go func() { _ = c.cmd.Wait(); close(exited) }()
	select {
	case <-exited:
	case <-time.After(3 * time.Second):
		_ = c.cmd.Process.Kill()
		<-exited
	}
}

// treeRSS is the VmRSS of pid and its descendants (an agent may run helper
// processes; a Node agent's memory is all its own).
func treeRSS(pid int) (int64, error) {
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	var total int64
	for _, line := range strings.Split(string(status), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmRSS:" {
			kb, err := strconv.ParseInt(f[1], 10, 64)
			if err != nil {
				return 0, err
			}
			total = kb << 10
		}
	}
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", pid))
	for _, t := range tasks {
		b, err := os.ReadFile(t)
		if err != nil {
			continue
		}
		for _, f := range strings.Fields(string(b)) {
			child, err := strconv.Atoi(f)
			if err != nil {
				continue
			}
			if rss, err := treeRSS(child); err == nil {
				total += rss
			} else if !errors.Is(err, os.ErrNotExist) {
				return 0, err
			}
		}
	}
	return total, nil
}

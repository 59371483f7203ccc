// Package lspclient is the benchmarks' LSP client over a child's stdio,
// lean on purpose: the benchmarks measure the server, not a client
// library. It answers the server's requests as a quiet editor does
// (configuration with nulls, everything else with null) unless the
// benchmark's OnRequest answers them, and hands notifications to OnNotify
// with the time they were read.
package lspclient

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/textproto"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Message is any JSON-RPC message.
type Message struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Params json.RawMessage `json:"params,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  json.RawMessage `json:"error,omitempty"`
}

// Options are the child's directory and environment (nil: this process's)
// and the benchmark's hooks, both run on the read loop.
type Options struct {
	Dir string
	Env []string
	// OnNotify gets every notification with the time it was read.
	OnNotify func(m Message, at time.Time)
	// OnRequest answers a server request; ok false leaves it to the quiet
	// editor's answer.
	OnRequest func(m Message) (result any, ok bool)
}

// Client is one server process and its connection.
type Client struct {
	Cmd   *exec.Cmd
	stdin io.WriteCloser
	done  chan struct{} // closed when the read loop ends
	opts  Options

	wmu sync.Mutex

	mu      sync.Mutex
	nextID  int
	pending map[int]chan Message
	readErr error
}

// Start starts argv and the client's read loop.
func Start(argv []string, o Options) (*Client, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = o.Dir
	cmd.Env = o.Env
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	c := &Client{Cmd: cmd, stdin: stdin, done: make(chan struct{}), opts: o, pending: map[int]chan Message{}}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", argv[0], err)
	}
	go c.readLoop(bufio.NewReaderSize(stdout, 1<<16))
	return c, nil
}

// Pid is the server's process id.
func (c *Client) Pid() int { return c.Cmd.Process.Pid }

func (c *Client) readLoop(r *bufio.Reader) {
	defer close(c.done)
	tp := textproto.NewReader(r)
	for {
		h, err := tp.ReadMIMEHeader()
		if err != nil {
			c.fail(err)
			return
		}
		n, err := strconv.Atoi(h.Get("Content-Length"))
		if err != nil {
			c.fail(fmt.Errorf("bad Content-Length %q", h.Get("Content-Length")))
			return
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(r, body); err != nil {
			c.fail(err)
			return
		}
		at := time.Now()
		var m Message
		if err := json.Unmarshal(body, &m); err != nil {
			c.fail(fmt.Errorf("decoding a message: %w", err))
			return
		}
		switch {
		case m.Method != "" && m.ID != nil:
			c.answer(m)
		case m.Method != "":
			if c.opts.OnNotify != nil {
				c.opts.OnNotify(m, at)
			}
		default:
			id, _ := strconv.Atoi(string(m.ID))
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

func (c *Client) fail(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.readErr = err
	for id, ch := range c.pending {
		close(ch)
		delete(c.pending, id)
	}
}

// answer replies to a server request: the benchmark's answer, else the
// quiet editor's.
func (c *Client) answer(m Message) {
	var result any
	ok := false
	if c.opts.OnRequest != nil {
		result, ok = c.opts.OnRequest(m)
	}
	if !ok {
		result = quietAnswer(m)
	}
	_ = c.send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": result})
}

// quietAnswer is an editor's answer with nothing to say: a null per
// configuration item, else null.
func quietAnswer(m Message) json.RawMessage {
	if m.Method != "workspace/configuration" {
		return json.RawMessage("null")
	}
	var p struct {
		Items []json.RawMessage `json:"items"`
	}
	_ = json.Unmarshal(m.Params, &p)
	return json.RawMessage("[" + strings.TrimSuffix(strings.Repeat("null,", len(p.Items)), ",") + "]")
}

func (c *Client) send(v any) error {
	body, err := json.Marshal(v)
	if err != nil {
		return err
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if _, err := fmt.Fprintf(c.stdin, "Content-Length: %d\r\n\r\n", len(body)); err != nil {
		return err
	}
	_, err = c.stdin.Write(body)
	return err
}

// Call sends a request and waits for its answer.
func (c *Client) Call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	ch := make(chan Message, 1)
	c.mu.Lock()
	if c.readErr != nil {
		c.mu.Unlock()
		return nil, c.readErr
	}
	c.nextID++
	id := c.nextID
	c.pending[id] = ch
	c.mu.Unlock()
	if err := c.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params}); err != nil {
		return nil, fmt.Errorf("sending %s: %w", method, err)
	}
	select {
	case m, ok := <-ch:
		if !ok {
			return nil, fmt.Errorf("%s: connection ended: %v", method, c.readErr)
		}
		if m.Error != nil {
			return nil, fmt.Errorf("%s: %s", method, m.Error)
		}
		return m.Result, nil
	case <-ctx.Done():
		return nil, fmt.Errorf("%s: %w", method, ctx.Err())
	}
}

// Notify sends a notification.
func (c *Client) Notify(method string, params any) error {
	return c.send(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

// Close shuts the server down politely, then for good; it returns the
// server's exit error.
func (c *Client) Close(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	_, shutdownErr := c.Call(ctx, "shutdown", nil)
	_ = c.Notify("exit", nil)
	_ = c.stdin.Close()
	waited := make(chan error, 1)
	go func() { waited <- c.Cmd.Wait() }()
	select {
	case err := <-waited:
		return errors.Join(shutdownErr, err)
	case <-ctx.Done():
		_ = c.Cmd.Process.Kill()
		return errors.Join(shutdownErr, fmt.Errorf("%s did not exit: %w", c.Cmd.Path, <-waited))
	}
}

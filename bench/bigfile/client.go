package main

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

// lspClient is a minimal LSP client over the daemon's stdio, playing an
// editor that applies every workspace/applyEdit to the file on disk (and
// then reports it saved, as an editor does once its buffer is written).
// Lean on purpose: the benchmark measures the daemon, not a client library.
type lspClient struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	done  chan struct{} // closed when the read loop ends

	wmu sync.Mutex

	mu      sync.Mutex
	nextID  int
	pending map[int]chan message
	readErr error
	edited  []string // URIs written to disk and not yet reported saved
	editErr error    // the first applyEdit the client could not apply
}

// message is any JSON-RPC message.
type message struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Params json.RawMessage `json:"params,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  json.RawMessage `json:"error,omitempty"`
}

func startClient(argv []string, dir string) (*lspClient, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	c := &lspClient{cmd: cmd, stdin: stdin, done: make(chan struct{}), pending: map[int]chan message{}}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", argv[0], err)
	}
	go c.readLoop(bufio.NewReaderSize(stdout, 1<<16))
	return c, nil
}

func (c *lspClient) pid() int { return c.cmd.Process.Pid }

func (c *lspClient) readLoop(r *bufio.Reader) {
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
		var m message
		if err := json.Unmarshal(body, &m); err != nil {
			c.fail(fmt.Errorf("decoding a message: %w", err))
			return
		}
		switch {
		case m.Method != "" && m.ID != nil:
			c.answer(m)
		case m.Method != "": // notifications: not measured
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

func (c *lspClient) fail(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.readErr = err
	for id, ch := range c.pending {
		close(ch)
		delete(c.pending, id)
	}
}

// answer replies to a server request: applyEdit is applied to the disk,
// configuration gets nulls, everything else null.
func (c *lspClient) answer(m message) {
	var result any = json.RawMessage("null")
	switch m.Method {
	case "workspace/configuration":
		var p struct {
			Items []json.RawMessage `json:"items"`
		}
		_ = json.Unmarshal(m.Params, &p)
		result = json.RawMessage("[" + strings.TrimSuffix(strings.Repeat("null,", len(p.Items)), ",") + "]")
	case "workspace/applyEdit":
		uris, err := applyToDisk(m.Params)
		c.mu.Lock()
		if err != nil && c.editErr == nil {
			c.editErr = err
		}
		c.edited = append(c.edited, uris...)
		c.mu.Unlock()
		if err != nil {
			result = map[string]any{"applied": false, "failureReason": err.Error()}
		} else {
			result = map[string]any{"applied": true}
		}
	}
	_ = c.send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": result})
}

// saveEdited sends didSave for the files written since the last call. It
// runs when the model gets the daemon's next request: by then the daemon
// has recorded the edit, so the save cannot overtake it.
func (c *lspClient) saveEdited() {
	c.mu.Lock()
	uris := c.edited
	c.edited = nil
	c.mu.Unlock()
	for _, u := range uris {
		_ = c.notify("textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": u}})
	}
}

func (c *lspClient) applyError() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.editErr
}

func (c *lspClient) send(v any) error {
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

// call sends a request and waits for its answer.
func (c *lspClient) call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	ch := make(chan message, 1)
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

func (c *lspClient) notify(method string, params any) error {
	return c.send(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

// close shuts the daemon down politely, then for good.
func (c *lspClient) close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, shutdownErr := c.call(ctx, "shutdown", nil)
	_ = c.notify("exit", nil)
	_ = c.stdin.Close()
	waited := make(chan error, 1)
	go func() { waited <- c.cmd.Wait() }()
	select {
	case err := <-waited:
		return errors.Join(shutdownErr, err)
	case <-ctx.Done():
		_ = c.cmd.Process.Kill()
		return errors.Join(shutdownErr, fmt.Errorf("%s did not exit: %w", c.cmd.Path, <-waited))
	}
}

package acp_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"

	sdk "github.com/coder/acp-go-sdk"
)

// testClient is an ACP client (an editor) in memory: it records every
// session/update, keeps unsaved buffers the agent reads and writes through
// fs/*, runs terminal/* commands as real processes, and answers
// permission requests with answer.
type testClient struct {
	mu      sync.Mutex
	updates []sdk.SessionNotification
	changed chan struct{} // closed and replaced on every update
	buffers map[string]string
	reads   []string // paths read through fs/read_text_file
	writes  []string // paths written through fs/write_text_file
	asked   []sdk.RequestPermissionRequest
	terms   map[string]*terminal
	created []string // commands run through terminal/create
	// answer picks the permission outcome; nil: the first allow_once.
	answer func(ctx context.Context, p sdk.RequestPermissionRequest) sdk.RequestPermissionOutcome
}

type terminal struct {
	cmd  *exec.Cmd
	out  bytes.Buffer // written by the process, read after done
	done chan struct{}
	err  error
}

func newTestClient() *testClient {
	return &testClient{changed: make(chan struct{}), buffers: map[string]string{}, terms: map[string]*terminal{}}
}

var _ sdk.Client = (*testClient)(nil)

func (c *testClient) SessionUpdate(_ context.Context, n sdk.SessionNotification) error {
	c.mu.Lock()
	c.updates = append(c.updates, n)
	close(c.changed)
	c.changed = make(chan struct{})
	c.mu.Unlock()
	return nil
}

// snapshot returns the updates so far and a channel closed at the next.
func (c *testClient) snapshot() ([]sdk.SessionNotification, <-chan struct{}) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]sdk.SessionNotification(nil), c.updates...), c.changed
}

// waitFor waits until some update satisfies ok and returns it.
func (c *testClient) waitFor(ctx context.Context, ok func(sdk.SessionUpdate) bool) (sdk.SessionUpdate, error) {
	for {
		ups, changed := c.snapshot()
		for _, u := range ups {
			if ok(u.Update) {
				return u.Update, nil
			}
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return sdk.SessionUpdate{}, fmt.Errorf("waiting for an update: %w", ctx.Err())
		}
	}
}

func (c *testClient) reset() {
	c.mu.Lock()
	c.updates = nil
	c.mu.Unlock()
}

func (c *testClient) RequestPermission(ctx context.Context, p sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error) {
	c.mu.Lock()
	c.asked = append(c.asked, p)
	answer := c.answer
	c.mu.Unlock()
	if answer != nil {
		return sdk.RequestPermissionResponse{Outcome: answer(ctx, p)}, nil
	}
	return sdk.RequestPermissionResponse{Outcome: selected("allow_once")}, nil
}

func selected(id string) sdk.RequestPermissionOutcome {
	return sdk.RequestPermissionOutcome{Selected: &sdk.RequestPermissionOutcomeSelected{Outcome: "selected", OptionId: sdk.PermissionOptionId(id)}}
}

func (c *testClient) ReadTextFile(_ context.Context, p sdk.ReadTextFileRequest) (sdk.ReadTextFileResponse, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.reads = append(c.reads, p.Path)
	text, ok := c.buffers[p.Path]
	if !ok {
		return sdk.ReadTextFileResponse{}, &sdk.RequestError{Code: -32002, Message: "Resource not found"}
	}
	if p.Line != nil || p.Limit != nil {
		text = linesOf(text, p.Line, p.Limit)
	}
	return sdk.ReadTextFileResponse{Content: text}, nil
}

// linesOf is what a client answers to fs/read_text_file's line (1-based)
// and limit: those lines, with their newlines.
func linesOf(text string, line, limit *int) string {
	lines := strings.SplitAfter(text, "\n")
	from, n := 0, len(lines)
	if line != nil {
		from = min(max(*line-1, 0), len(lines))
	}
	if limit != nil {
		n = *limit
	}
	return strings.Join(lines[from:min(from+n, len(lines))], "")
}

func (c *testClient) WriteTextFile(_ context.Context, p sdk.WriteTextFileRequest) (sdk.WriteTextFileResponse, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.writes = append(c.writes, p.Path)
	c.buffers[p.Path] = p.Content
	return sdk.WriteTextFileResponse{}, nil
}

func (c *testClient) buffer(path string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.buffers[path]
}

func (c *testClient) CreateTerminal(_ context.Context, p sdk.CreateTerminalRequest) (sdk.CreateTerminalResponse, error) {
	cmd := exec.Command(p.Command, p.Args...)
	if p.Cwd != nil {
		cmd.Dir = *p.Cwd
	}
	cmd.Env = os.Environ()
	for _, v := range p.Env {
		cmd.Env = append(cmd.Env, v.Name+"="+v.Value)
	}
	t := &terminal{cmd: cmd, done: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = &t.out, &t.out
	if err := cmd.Start(); err != nil {
		return sdk.CreateTerminalResponse{}, err
	}
	go func() { t.err = cmd.Wait(); close(t.done) }() // owner: the terminal; ends with the process
	c.mu.Lock()
	defer c.mu.Unlock()
	id := "term-" + strconv.Itoa(len(c.terms)+1)
	c.terms[id] = t
	c.created = append(c.created, p.Command+" "+fmt.Sprint(p.Args))
	return sdk.CreateTerminalResponse{TerminalId: id}, nil
}

func (c *testClient) term(id string) (*terminal, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	t, ok := c.terms[id]
	if !ok {
		return nil, errors.New("unknown terminal " + id)
	}
	return t, nil
}

func (c *testClient) TerminalOutput(_ context.Context, p sdk.TerminalOutputRequest) (sdk.TerminalOutputResponse, error) {
	t, err := c.term(p.TerminalId)
	if err != nil {
		return sdk.TerminalOutputResponse{}, err
	}
	select {
	case <-t.done:
		code := t.cmd.ProcessState.ExitCode()
		return sdk.TerminalOutputResponse{Output: t.out.String(), ExitStatus: &sdk.TerminalExitStatus{ExitCode: &code}}, nil
	default:
		return sdk.TerminalOutputResponse{}, nil // still running: its buffer is the process's
	}
}

func (c *testClient) WaitForTerminalExit(ctx context.Context, p sdk.WaitForTerminalExitRequest) (sdk.WaitForTerminalExitResponse, error) {
	t, err := c.term(p.TerminalId)
	if err != nil {
		return sdk.WaitForTerminalExitResponse{}, err
	}
	select {
	case <-t.done:
		code := t.cmd.ProcessState.ExitCode()
		return sdk.WaitForTerminalExitResponse{ExitCode: &code}, nil
	case <-ctx.Done():
		return sdk.WaitForTerminalExitResponse{}, ctx.Err()
	}
}

func (c *testClient) KillTerminal(_ context.Context, p sdk.KillTerminalRequest) (sdk.KillTerminalResponse, error) {
	t, err := c.term(p.TerminalId)
	if err != nil {
		return sdk.KillTerminalResponse{}, err
	}
	_ = t.cmd.Process.Kill()
	<-t.done
	return sdk.KillTerminalResponse{}, nil
}

func (c *testClient) ReleaseTerminal(_ context.Context, p sdk.ReleaseTerminalRequest) (sdk.ReleaseTerminalResponse, error) {
	t, err := c.term(p.TerminalId)
	if err != nil {
		return sdk.ReleaseTerminalResponse{}, err
	}
	_ = t.cmd.Process.Kill() // released: a process still running dies
	<-t.done
	return sdk.ReleaseTerminalResponse{}, nil
}

// closeAll kills what is left running.
func (c *testClient) closeAll() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, t := range c.terms {
		_ = t.cmd.Process.Kill()
		<-t.done
	}
}

package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agent-lsp/agent-lsp/lsp/lsptest"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// acpRecorder is the smallest ACP client: it records the agent's message
// chunks, allows what it is asked once, and refuses what it does not offer.
type acpRecorder struct {
	mu   sync.Mutex
	text strings.Builder
}

func (r *acpRecorder) SessionUpdate(_ context.Context, n sdk.SessionNotification) error {
	if c := n.Update.AgentMessageChunk; c != nil && c.Content.Text != nil {
		r.mu.Lock()
		r.text.WriteString(c.Content.Text.Text)
		r.mu.Unlock()
	}
	return nil
}

func (r *acpRecorder) RequestPermission(context.Context, sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error) {
	return sdk.RequestPermissionResponse{Outcome: sdk.RequestPermissionOutcome{Selected: &sdk.RequestPermissionOutcomeSelected{Outcome: "selected", OptionId: "allow_once"}}}, nil
}
func (r *acpRecorder) ReadTextFile(context.Context, sdk.ReadTextFileRequest) (sdk.ReadTextFileResponse, error) {
	return sdk.ReadTextFileResponse{}, sdk.NewMethodNotFound("fs/read_text_file")
}
func (r *acpRecorder) WriteTextFile(context.Context, sdk.WriteTextFileRequest) (sdk.WriteTextFileResponse, error) {
	return sdk.WriteTextFileResponse{}, sdk.NewMethodNotFound("fs/write_text_file")
}
func (r *acpRecorder) CreateTerminal(context.Context, sdk.CreateTerminalRequest) (sdk.CreateTerminalResponse, error) {
	return sdk.CreateTerminalResponse{}, sdk.NewMethodNotFound("terminal/create")
}
func (r *acpRecorder) KillTerminal(context.Context, sdk.KillTerminalRequest) (sdk.KillTerminalResponse, error) {
	return sdk.KillTerminalResponse{}, sdk.NewMethodNotFound("terminal/kill")
}
func (r *acpRecorder) TerminalOutput(context.Context, sdk.TerminalOutputRequest) (sdk.TerminalOutputResponse, error) {
	return sdk.TerminalOutputResponse{}, sdk.NewMethodNotFound("terminal/output")
}
func (r *acpRecorder) ReleaseTerminal(context.Context, sdk.ReleaseTerminalRequest) (sdk.ReleaseTerminalResponse, error) {
	return sdk.ReleaseTerminalResponse{}, sdk.NewMethodNotFound("terminal/release")
}
func (r *acpRecorder) WaitForTerminalExit(context.Context, sdk.WaitForTerminalExitRequest) (sdk.WaitForTerminalExitResponse, error) {
	return sdk.WaitForTerminalExitResponse{}, sdk.NewMethodNotFound("terminal/wait_for_exit")
}

// The real binary serves ACP on stdio with the daemon's model flags, in
// both dialects (with the demo MCP server of --mcp), and its stdout carries only JSON-RPC (every line is JSON,
// even with debug logging on stderr).
func TestACPBinary(t *testing.T) {
	bin := agentBinary(t)
	for _, dialect := range []string{"openai", "anthropic"} {
		t.Run(dialect, func(t *testing.T) {
			srv := providertest.NewServer(t, providertest.Script{
				{ToolCalls: []providertest.Call{{ID: "call_wc", Name: "mcp__demo__word_count", Arguments: `{"text":"one two three"}`}}},
				{Check: func(r providertest.Received) error {
					if !strings.Contains(string(r.Body), "words: 3") {
						return errors.New("the word count is not in the request")
					}
					return nil
				}, Text: "hello over ACP"},
			})
			url := srv.OpenAIBaseURL()
			if dialect == "anthropic" {
				url = srv.AnthropicBaseURL()
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			ws := t.TempDir()
			cmd := exec.CommandContext(ctx, bin, "acp", "--provider", dialect, "--base-url", url, "--api-key-env", "none",
				"--thinking=false", "--state-dir", t.TempDir(), "--sandbox", "off", "--mcp", "demo")
			cmd.Env = lsptest.IsolatedEnv(t)
			stdin, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			stderr := &lockedText{}
			cmd.Stderr = stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			// Every line from stdout is checked as JSON on its way to the client.
			pr, pw := io.Pipe()
			notJSON := make(chan string, 1)
			scanned := make(chan struct{})
			go func() { // owner: this test; ends when the agent's stdout closes
				defer close(scanned)
				defer pw.Close()
				sc := bufio.NewScanner(stdout)
				sc.Buffer(make([]byte, 1<<20), 1<<24)
				for sc.Scan() {
					if !json.Valid(sc.Bytes()) {
						select {
						case notJSON <- sc.Text():
						default:
						}
					}
					_, _ = pw.Write(append(sc.Bytes(), '\n'))
				}
			}()
			rec := &acpRecorder{}
			conn := sdk.NewClientSideConnection(rec, stdin, pr)
			init, err := conn.Initialize(ctx, sdk.InitializeRequest{ProtocolVersion: sdk.ProtocolVersionNumber})
			if err != nil || init.AgentInfo == nil || init.AgentInfo.Name != "agent-lsp" || len(init.AuthMethods) != 0 {
				t.Fatalf("initialize: %v %+v\nstderr:\n%s", err, init, stderr.String())
			}
			ns, err := conn.NewSession(ctx, sdk.NewSessionRequest{Cwd: ws, McpServers: []sdk.McpServer{}})
			if err != nil {
				t.Fatalf("session/new: %v\nstderr:\n%s", err, stderr.String())
			}
			resp, err := conn.Prompt(ctx, sdk.PromptRequest{SessionId: ns.SessionId, Prompt: []sdk.ContentBlock{sdk.TextBlock("hi")}})
			if err != nil || resp.StopReason != sdk.StopReasonEndTurn {
				t.Fatalf("prompt: %v %+v\nstderr:\n%s", err, resp, stderr.String())
			}
			rec.mu.Lock()
			got := rec.text.String()
			rec.mu.Unlock()
			if got != "hello over ACP" {
				t.Fatalf("agent text %q", got)
			}
			_ = stdin.Close() // the client goes: the agent ends
			if err := cmd.Wait(); err != nil {
				t.Fatalf("agent-lsp acp exited: %v\nstderr:\n%s", err, stderr.String())
			}
			<-scanned
			select {
			case line := <-notJSON:
				t.Fatalf("stdout carried a non-JSON line: %q", line)
			default:
			}
		})
	}
}

// lockedText collects a process's stderr while the test may read it.
type lockedText struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedText) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedText) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

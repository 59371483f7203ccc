package acp_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"
	"go.uber.org/zap/zaptest"

	"github.com/agent-lsp/agent-lsp/acp"
	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/agent/control"
	"github.com/agent-lsp/agent-lsp/agent/world"
	"github.com/agent-lsp/agent-lsp/hooks"
	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/provider/anthropic"
	"github.com/agent-lsp/agent-lsp/provider/openai"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
	"github.com/agent-lsp/agent-lsp/tools"
	"github.com/agent-lsp/agent-lsp/tools/sandbox"
)

// waitLong bounds every wait of these tests; nothing should come near it
// (a 5 MiB edit under -race on two busy cores took 20 s once).
const waitLong = 60 * time.Second

// harness is one agent (acp.Serve over pipes) and one test client,
// against the strict fake model server.
type harness struct {
	t      *testing.T
	model  *providertest.Server
	client *testClient
	conn   *sdk.ClientSideConnection
	done   chan error    // Serve's result
	in     io.Writer     // raw: to the agent
	out    *bufio.Reader // raw: from the agent
	stop   func()
}

type harnessOptions struct {
	dialect  string
	stateDir string               // "": a fresh one
	model    *providertest.Server // reuse (a fresh agent on the same model)
	script   providertest.Script
	keyEnv   string // set: the model's key is missing from this variable
	raw      bool   // no SDK client: the test writes JSON-RPC itself (h.in, h.out)
	// modelName and free, when set, replace the configured model's name
	// and say its server is free.
	modelName string
	free      bool
	// contextWindow, when set, is the user's setting of the model's window.
	contextWindow int
	// record or replay, when set, build the models as the binary does
	// (agent/world): recording into this file, or answering from it.
	record, replay string
	presets        []control.Preset // the user's model presets
	webFetch       tools.WebFetchOptions
	storeErr       error // sessions cannot be saved (acp.Options.StoreErr)
	hooks          hooks.Config
}

// worldModels are the models as the binary builds them (agent/world),
// recording or replaying; closed when the test ends.
func worldModels(t *testing.T, o harnessOptions, cfg provider.Config) (provider.Provider, func(provider.Config) (provider.Provider, func() error, error)) {
	t.Helper()
	models, err := world.OpenModels(world.ModelOptions{RecordPath: o.record, ReplayPath: o.replay})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := models.Close(); err != nil {
			t.Errorf("closing the recording: %v", err)
		}
	})
	p, err := models.Connect(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return p, models.Connector()
}

// modelConfig is the configured model: the fake server, in the dialect.
func modelConfig(srv *providertest.Server, dialect string) provider.Config {
	cfg := provider.DefaultConfig(dialect)
	cfg.APIKeyEnv = "none"
	cfg.Thinking = false
	cfg.BaseURL = srv.OpenAIBaseURL()
	if dialect == anthropic.Name {
		cfg.BaseURL = srv.AnthropicBaseURL()
	}
	return cfg
}

// fakeProvider talks to the fake server in the dialect of c, wherever
// c's base URL points (a switched preset names the real service).
func fakeProvider(srv *providertest.Server, c provider.Config) (provider.Provider, error) {
	o := provider.HTTPOptions{BaseURL: srv.OpenAIBaseURL(), APIKey: "test-key", Client: srv.Client(), MaxAttempts: 1, Dialect: openai.NewDialect()}
	if c.Provider == anthropic.Name {
		o.BaseURL, o.Dialect = srv.AnthropicBaseURL(), anthropic.NewDialect()
	}
	return provider.NewHTTP(o)
}

func startAgent(t *testing.T, o harnessOptions) *harness {
	t.Helper()
	if o.model == nil {
		o.model = providertest.NewServer(t, o.script, providertest.WithSeed(7))
	}
	if o.stateDir == "" {
		o.stateDir = t.TempDir()
	}
	log := zaptest.NewLogger(t)
	store, err := agent.NewStore(o.stateDir, log)
	if err != nil {
		t.Fatal(err)
	}
	cfg := modelConfig(o.model, o.dialect)
	if o.modelName != "" {
		cfg.Model = o.modelName
	}
	cfg.Free = o.free
	cfg.ContextWindow = o.contextWindow
	p, err := fakeProvider(o.model, cfg)
	if err != nil {
		t.Fatal(err)
	}
	connect := func(c provider.Config) (provider.Provider, func() error, error) {
		p, err := fakeProvider(o.model, c)
		return p, nil, err
	}
	if o.record != "" || o.replay != "" {
		p, connect = worldModels(t, o, cfg)
	}
	ctl := control.New(control.Options{
		Store: store, Logger: log, Model: cfg, Provider: p, Connect: connect, Presets: o.presets,
	})
	toAgentR, toAgentW := io.Pipe()
	fromAgentR, fromAgentW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	h := &harness{t: t, model: o.model, client: newTestClient(), done: make(chan error, 1)}
	go func() { // owner: the harness; ends when the pipes close
		h.done <- acp.Serve(ctx, toAgentR, fromAgentW, acp.Options{
			Control: ctl, Logger: log, Version: "test",
			KeyEnv: o.keyEnv, KeyMissing: o.keyEnv != "", WebFetch: o.webFetch, StoreErr: o.storeErr, Hooks: o.hooks,
			// The runner the binary uses: ours, in the OS sandbox (or its
			// fallback where the kernel has none).
			LocalRunner: func(ws *tools.Workspace) (tools.CommandRunner, bool, func() error, error) {
				box, err := sandbox.New(sandbox.Settings{Mode: sandbox.ModeWorkspaceWrite, Network: sandbox.NetworkLocal}, ws.Roots())
				if err != nil {
					return nil, false, nil, err
				}
				return tools.NewProcessRunner(box), false, box.Close, nil
			},
		})
		_ = fromAgentW.Close()
	}()
	if o.raw {
		h.in, h.out = toAgentW, bufio.NewReader(fromAgentR)
	} else {
		h.conn = sdk.NewClientSideConnection(h.client, toAgentW, fromAgentR)
	}
	var once sync.Once
	h.stop = func() {
		once.Do(func() {
			cancel()
			_ = toAgentW.Close()
			// A deadline, not await.Event: stop runs in cleanups, where
			// the failure is reported and the other cleanups still run.
			ended, cancelEnded := context.WithTimeout(context.Background(), waitLong)
			defer cancelEnded()
			select {
			case err := <-h.done:
				if err != nil {
					t.Errorf("Serve: %v", err)
				}
			case <-ended.Done():
				t.Error("Serve did not end")
			}
			h.client.closeAll()
			_ = ctl.Close()
		})
	}
	t.Cleanup(h.stop)
	return h
}

func (h *harness) ctx() context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	h.t.Cleanup(cancel)
	return ctx
}

// initialize declares fs and terminal support, or nothing.
func (h *harness) initialize(withCaps bool) sdk.InitializeResponse {
	h.t.Helper()
	req := sdk.InitializeRequest{ProtocolVersion: sdk.ProtocolVersionNumber}
	if withCaps {
		req.ClientCapabilities = sdk.ClientCapabilities{Fs: sdk.FileSystemCapabilities{ReadTextFile: true, WriteTextFile: true}, Terminal: true}
	}
	resp, err := h.conn.Initialize(h.ctx(), req)
	if err != nil {
		h.t.Fatalf("initialize: %v", err)
	}
	return resp
}

// demoServer is the repository's demo MCP server (this test binary).
func demoServer(t *testing.T) sdk.McpServer {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return sdk.McpServer{Stdio: &sdk.McpServerStdio{Name: "demo", Command: exe, Args: []string{"mcp-demo"}, Env: []sdk.EnvVariable{}}}
}

// prompt sends text and returns the response.
func (h *harness) prompt(id sdk.SessionId, text string) sdk.PromptResponse {
	h.t.Helper()
	resp, err := h.conn.Prompt(h.ctx(), sdk.PromptRequest{SessionId: id, Prompt: []sdk.ContentBlock{sdk.TextBlock(text)}})
	if err != nil {
		h.t.Fatalf("prompt %q: %v", text, err)
	}
	return resp
}

// bodyHas is a Check: the request carries s (a tool result, an attachment).
func bodyHas(s string) func(providertest.Received) error {
	return func(r providertest.Received) error {
		if !strings.Contains(string(r.Body), s) {
			return fmt.Errorf("request lacks %q", s)
		}
		return nil
	}
}

// text joins the agent message chunks of updates.
func agentText(ups []sdk.SessionNotification) string {
	var b strings.Builder
	for _, u := range ups {
		if c := u.Update.AgentMessageChunk; c != nil && c.Content.Text != nil {
			b.WriteString(c.Content.Text.Text)
		}
	}
	return b.String()
}

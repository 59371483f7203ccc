package lsp_test

import (
	"context"
	"fmt"
	"os"
	"testing"

	"go.uber.org/zap"

	"github.com/agent-lsp/agent-lsp/lsp"
	"github.com/agent-lsp/agent-lsp/mcp/demo"
	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/provider/anthropic"
	"github.com/agent-lsp/agent-lsp/provider/openai"
	"github.com/agent-lsp/agent-lsp/tools/sandbox"
)

// The daemon of the restart tests is this test binary run again with these
// variables set: a real process that can be killed with SIGKILL.
const (
	envDaemonDialect  = "AGENT_LSP_TEST_DAEMON" // the dialect; set: be the daemon
	envDaemonModelURL = "AGENT_LSP_TEST_DAEMON_URL"
	envDaemonStateDir = "AGENT_LSP_TEST_DAEMON_STATE"
)

func TestMain(m *testing.M) {
	sandbox.Main() // the test binary is also the sandbox launcher
	if d := os.Getenv(envDaemonDialect); d != "" {
		os.Exit(runDaemon(d))
	}
	// The test binary stands in for agent-lsp as the demo MCP server
	// (mcp.DemoConfig runs os.Executable() mcp-demo).
	if len(os.Args) == 2 && os.Args[1] == "mcp-demo" {
		if err := demo.Serve(context.Background(), os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "mcp-demo:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// runDaemon serves LSP on stdin/stdout against the fake model, logging to
// stderr, as `agent-lsp --state-dir …` would.
func runDaemon(dialect string) int {
	log, err := zap.NewDevelopment()
	if err != nil {
		fmt.Fprintln(os.Stderr, "daemon logger:", err)
		return 2
	}
	cfg := provider.DefaultConfig(dialect)
	cfg.APIKeyEnv = "none"
	cfg.Thinking = false
	cfg.BaseURL = os.Getenv(envDaemonModelURL)
	code, err := lsp.Serve(context.Background(), os.Stdin, os.Stdout, lsp.Options{
		Provider: cfg,
		NewProvider: func(c provider.Config) (provider.Provider, error) {
			o := provider.HTTPOptions{BaseURL: c.BaseURL, APIKey: "test-key", MaxAttempts: 1, Dialect: openai.NewDialect()}
			if c.Provider == anthropic.Name {
				o.Dialect = anthropic.NewDialect()
			}
			return provider.NewHTTP(o)
		},
		Logger:   log,
		StateDir: os.Getenv(envDaemonStateDir),
	})
	if err != nil {
		log.Error("serve", zap.Error(err))
	}
	return code
}

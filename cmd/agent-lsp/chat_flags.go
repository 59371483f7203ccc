package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/term"
	"github.com/agent-lsp/agent-lsp/tools"
	"github.com/agent-lsp/agent-lsp/tools/sandbox"
)

// modelFlags are the model connection settings every front end shares.
// Precedence: defaults, then AGENT_LSP_* variables, then flags.
type modelFlags struct {
	provider, baseURL, model, apiKeyEnv string
	serverKind                          string
	maxTokens                           int
	thinking, free                      bool
	effort                              string
	idle                                time.Duration
	dumpRaw                             bool
	record, replay                      string
	contextWindow                       int
}

// windows asks servers for unknown models' context windows, unless the
// run answers from a recording (no server to ask).
func (m *modelFlags) windows() *provider.WindowCache {
	if m.replay != "" {
		return nil
	}
	return &provider.WindowCache{}
}

func (m *modelFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&m.provider, "provider", "", "model API dialect: openai (Chat Completions) or anthropic (Messages)")
	fs.StringVar(&m.baseURL, "base-url", "", "model API base URL (default per dialect: DeepSeek)")
	fs.StringVar(&m.model, "model", "", "model name (default deepseek-flash)")
	fs.StringVar(&m.apiKeyEnv, "api-key-env", "", "name of the environment variable holding the API key (default DEEPSEEK_API_KEY; none: no key)")
	fs.StringVar(&m.serverKind, "server-kind", "", "server behind the base URL, for its thinking switch: "+strings.Join(provider.ServerKinds(), ", ")+" (default: detected from the base URL)")
	fs.IntVar(&m.maxTokens, "max-tokens", 0, "answer token limit (default 8192)")
	fs.BoolVar(&m.thinking, "thinking", true, "ask for the model's reasoning")
	fs.StringVar(&m.effort, "effort", "", "reasoning effort: low, medium, high or max")
	fs.BoolVar(&m.free, "free", false, "the model's server costs nothing (a local one): show its cost as $0, not unknown")
	fs.DurationVar(&m.idle, "idle-timeout", 0, "fail a model stream silent for this long (default 5m)")
	fs.BoolVar(&m.dumpRaw, "dump-raw", false, "print every raw SSE line to stderr as [RAW] …")
	fs.StringVar(&m.record, "record", "", "append every model exchange (request without key, raw SSE) to this JSONL file")
	fs.IntVar(&m.contextWindow, "context-window", 0, "the model's context window in tokens (default: the tables', else what the server says, else 128000)")
	fs.StringVar(&m.replay, "replay", "", "answer from a recording made with --record instead of the network")
}

// config merges defaults, the environment and the flags that were set.
func (m *modelFlags) config(fs *flag.FlagSet, getenv func(string) string) provider.Config {
	cfg := provider.DefaultConfig("openai").WithEnv(getenv)
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if set["provider"] {
		cfg = cfg.WithProvider(m.provider)
	}
	if set["base-url"] {
		cfg.BaseURL = m.baseURL
	}
	if set["model"] {
		cfg.Model = m.model
	}
	if set["api-key-env"] {
		cfg.APIKeyEnv = m.apiKeyEnv
	}
	if set["server-kind"] {
		cfg.ServerKind = strings.ToLower(strings.TrimSpace(m.serverKind))
	}
	if set["max-tokens"] {
		cfg.MaxTokens = m.maxTokens
	}
	cfg.Free = m.free
	if set["thinking"] {
		cfg.Thinking = m.thinking
	}
	if set["effort"] {
		cfg.Effort = m.effort
	}
	if set["idle-timeout"] {
		cfg.IdleTimeout = m.idle
	}
	if set["context-window"] {
		cfg.ContextWindow = m.contextWindow
	}
	return cfg
}

// chatFlags are the terminal chat's flags.
type chatFlags struct {
	modelFlags
	yes bool
	// replayDenied: with --replay, the recording to answer from once a
	// tool call is denied (the offline demo's other branch).
	replayDenied string
	dir          string
	prompt       string
	logFile      string
	noColor      bool
	// Context and sessions.
	budget, keep int
	resume       string
	cont         bool
	list         bool
	stateDir     string
	noSave       bool
	mcp          mcpFlags
	mode         agent.Mode
	// trustWorkspace trusts the workspace's .mcp.json for this run.
	trustWorkspace bool
	// The command sandbox.
	sandbox          sandbox.Settings
	sandboxAutoAllow bool
	webFetch         tools.WebFetchOptions
}

// parseChatFlags parses the chat's flags. It prints nothing: -h returns
// flag.ErrHelp with the flag set (chatUsage shows it, on stdout), a
// usage error returns the error alone.
func parseChatFlags(args []string, _ io.Writer) (*chatFlags, *flag.FlagSet, error) {
	fs := flag.NewFlagSet("agent-lsp chat", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	c := &chatFlags{}
	c.modelFlags.register(fs)
	fs.BoolVar(&c.yes, "yes", false, "approve every action without asking (CRITICAL ones are still refused)")
	fs.StringVar(&c.dir, "dir", "", "workspace directory (default: the current directory)")
	fs.StringVar(&c.prompt, "p", "", "one-shot prompt: print the answer and exit")
	fs.StringVar(&c.logFile, "log-file", "", "write debug logs to this file (default: warnings to stderr)")
	fs.BoolVar(&c.noColor, "no-color", false, "no ANSI colours")
	fs.IntVar(&c.budget, "budget", 0, "context budget in tokens; compaction keeps requests under it (default: 80% of the model's context window, at most 64000)")
	fs.IntVar(&c.keep, "keep", 0, "recent messages kept verbatim by compaction (default 8)")
	fs.StringVar(&c.resume, "resume", "", "resume the stored session with this ID")
	fs.BoolVar(&c.cont, "continue", false, "resume the most recent stored session of this workspace")
	fs.StringVar(&c.stateDir, "state-dir", "", "where sessions are stored (default $XDG_STATE_HOME/agent-lsp/sessions)")
	fs.BoolVar(&c.trustWorkspace, "trust-workspace", false, "start the workspace's .mcp.json servers without asking, for this run (--yes does not)")
	fs.Var(&c.mcp, "mcp", "mount an MCP server: demo, a command line, or name=command line; eager: before it sends its tools whole, without tool search (repeatable; .mcp.json in the workspace is read too)")
	fs.Func("mode", "starting mode: ask (read-only), plan, default, auto-edit (edits without asking; commands still ask)", func(v string) error {
		m, err := agent.ParseMode(v)
		c.mode = m
		return err
	})
	fs.BoolVar(&c.noSave, "no-save", false, "keep the session in memory only")
	registerSandboxFlags(fs, &c.sandbox, &c.sandboxAutoAllow)
	registerWebFetchFlags(fs, &c.webFetch)
	fs.StringVar(&c.replayDenied, "replay-denied", "", "with --replay: once a tool call is denied, answer from this recording (made with that call denied) instead")
	fs.BoolVar(&c.list, "list", false, "list the stored sessions (this workspace's first) and exit")
	fs.Usage = func() {}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, fs, err
		}
		return nil, nil, err
	}
	if fs.NArg() > 0 {
		return nil, nil, fmt.Errorf("unexpected arguments %q (quote the prompt: -p \"...\")", fs.Args())
	}
	if c.resume != "" && c.cont {
		return nil, nil, fmt.Errorf("--resume and --continue exclude each other")
	}
	if c.budget < 0 || c.keep < 0 {
		return nil, nil, fmt.Errorf("--budget and --keep must not be negative")
	}
	if c.dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, nil, fmt.Errorf("working directory: %w", err)
		}
		c.dir = wd
	}
	return c, fs, nil
}

// mcpFlags collects repeated --mcp values.
type mcpFlags []string

func (m *mcpFlags) String() string     { return strings.Join(*m, ",") }
func (m *mcpFlags) Set(v string) error { *m = append(*m, v); return nil }

// chatUsage is -h's text: the usage, the commands and the flags.
func chatUsage(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprintf(w, "usage: agent-lsp chat [flags]\n\n%s\nflags:\n", term.CommandsHelp)
	fs.SetOutput(w)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
}

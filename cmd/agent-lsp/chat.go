package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"strings"
	"sync"

	"go.uber.org/zap"
	"golang.org/x/term"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/permission"
	"github.com/agent-lsp/agent-lsp/provider/connect"
	"github.com/agent-lsp/agent-lsp/tools"
)

// chat is one terminal conversation: the session and what it talks to.
type chat struct {
	session  *agent.Session
	ctl      *chatControl // /mode, /model and @mentions
	approver *permission.TerminalApprover
	closeAll func() error
}

func runChat(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	f, fs, err := parseChatFlags(args, stderr)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		fmt.Fprintf(stderr, "agent-lsp chat: %v\n", err)
		return 2
	}
	log, err := newLogger(f.logFile, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "agent-lsp chat: %v\n", err)
		return 2
	}
	defer log.Sync() //nolint:errcheck // nothing useful to do with a failed flush
	hideSecrets(f.config(fs, tools.Getenv), log)

	ctx, stop := terminationContext()
	defer stop()

	interactive := isTerminal(stdin)
	color := !f.noColor && isTerminal(stdout) && os.Getenv("NO_COLOR") == ""
	// In one-shot mode stdout carries only the answer; everything else
	// (reasoning, tool activity, approvals) goes to stderr.
	progress := stdout
	if f.prompt != "" {
		progress = stderr
	}
	c, err := newChat(ctx, f, fs, stdin, progress, stderr, color, log)
	if err != nil {
		fmt.Fprintf(stderr, "agent-lsp chat: %v\n", err)
		return 1
	}
	defer func() {
		if err := c.closeAll(); err != nil {
			fmt.Fprintf(stderr, "agent-lsp chat: %v\n", err)
		}
	}()

	if f.prompt != "" {
		p := newPrinter(stdout, progress, color)
		o := c.promptInterruptible(ctx, c.attach(ctx, f.prompt, p), p)
		if o.StopReason == agent.StopError || o.StopReason == agent.StopCancelled {
			fmt.Fprintf(stderr, "agent-lsp chat: %s: %v\n", o.StopReason, o.Err)
			return 1
		}
		return 0
	}
	return c.repl(ctx, stdout, color, interactive)
}

func newChat(ctx context.Context, f *chatFlags, fs *flag.FlagSet, stdin io.Reader, progress, stderr io.Writer, color bool, log *zap.Logger) (*chat, error) {
	cfg := f.config(fs, tools.Getenv)
	var rawDump io.Writer
	if f.dumpRaw {
		rawDump = os.Stderr
	}
	model, closeModel, err := connect.New(cfg, connect.Options{
		Getenv: secretGetenv, RecordPath: f.record, ReplayPath: f.replay,
		RawDump: rawDump, Redact: tools.RedactSecrets, Logger: log,
	})
	if err != nil {
		return nil, err
	}
	ws, err := tools.NewWorkspace(f.dir)
	if err != nil {
		_ = closeModel()
		return nil, err
	}
	reg := tools.NewRegistry()
	if err := tools.RegisterBuiltins(reg); err != nil {
		_ = closeModel()
		return nil, err
	}
	closeAll := closeModel
	// Created first: it owns stdin, and the MCP trust questions read their
	// answers through it.
	approverTTY := permission.NewTerminalApprover(stdin, progress, color)
	if m := mountMCP(ctx, ws, reg, mcpMount{flags: f.mcp, trustWorkspace: f.trustWorkspace, yes: f.yes,
		stateDir: f.stateDir, answers: approverTTY, out: progress}, log); m != nil {
		closeAll = func() error { return errors.Join(m.Close(), closeModel()) }
	}
	store, err := openStore(f, log)
	if err != nil && (f.resume != "" || f.cont) {
		_ = closeAll()
		return nil, err
	}
	if err != nil { // not being able to save is no reason not to answer
		fmt.Fprintf(stderr, "agent-lsp chat: warning: %v; this session is not saved\n", err)
	}
	box, err := openSandbox(f, ws, store, progress, log)
	if err != nil {
		_ = closeAll()
		return nil, err
	}
	closeModelAndMCP := closeAll
	closeAll = func() error { return errors.Join(closeModelAndMCP(), box.Close()) }
	var approver permission.Approver = approverTTY
	if f.yes {
		approver = permission.AutoApprover{}
	}
	gate := permission.NewPolicy(approver)
	gate.SetAutoAllowSandboxedCommands(f.sandboxAutoAllow && box.Status().Active)
	acfg := agent.Config{
		Provider:  model,
		Model:     cfg.Model,
		MaxTokens: cfg.MaxTokens,
		Thinking:  cfg.ThinkingOption(),
		Tools:     reg,
		Env:       &tools.Env{Workspace: ws, Docs: &tools.DiskDocuments{Workspace: ws}, Runner: tools.NewProcessRunner(box)},
		Gate:      gate,
		Mode:      f.mode,
		Budget:    f.budget,
		Keep:      f.keep,
		Store:     store,
		Logger:    log,
	}
	acfg.OnStoreError = func(err error) {
		fmt.Fprintf(stderr, "agent-lsp chat: warning: %v; the session goes on unsaved\n", err)
	}
	session, err := openSession(f, acfg, store, agent.SystemPrompt(ws, runtime.GOOS, shellName()))
	if err != nil {
		_ = closeAll()
		return nil, err
	}
	ctl := &chatControl{session: session, ws: ws, docs: acfg.Env.Docs, cfg: cfg,
		opts: connect.Options{Getenv: secretGetenv, RawDump: rawDump, Redact: tools.RedactSecrets, Logger: log}}
	// A replayed run answers from its file whatever the model: it keeps it.
	if f.replay == "" {
		if note := ctl.restoreModel(); note != "" {
			fmt.Fprintln(progress, note)
		}
	}
	return &chat{session: session, ctl: ctl, approver: approverTTY,
		closeAll: func() error { return errors.Join(ctl.close(), closeAll()) }}, nil
}

// openStore opens the session store unless the session stays in memory.
func openStore(f *chatFlags, log *zap.Logger) (*agent.Store, error) {
	if f.noSave && f.resume == "" && !f.cont {
		return nil, nil
	}
	dir := f.stateDir
	if dir == "" {
		d, err := agent.DefaultStateDir()
		if err != nil {
			return nil, fmt.Errorf("session store: %w (use --state-dir or --no-save)", err)
		}
		dir = d
	}
	return agent.NewStore(dir, log)
}

// openSession starts a new session or resumes a stored one.
func openSession(f *chatFlags, cfg agent.Config, store *agent.Store, systemPrompt string) (*agent.Session, error) {
	id := f.resume
	if f.cont {
		list, err := store.List()
		if err != nil {
			return nil, err
		}
		if len(list) == 0 {
			return nil, fmt.Errorf("--continue: no stored session in %s", store.Dir())
		}
		id = list[0].ID
	}
	if id == "" {
		return agent.NewSession(cfg, systemPrompt), nil
	}
	s, err := agent.ResumeSession(cfg, id)
	if err != nil {
		return nil, fmt.Errorf("resume session %s: %w", id, err)
	}
	return s, nil
}

// promptInterruptible runs one prompt; Ctrl-C cancels the prompt, not the
// program.
func (c *chat) promptInterruptible(ctx context.Context, text string, l agent.Listener) agent.Outcome {
	pctx, cancel := context.WithCancel(ctx)
	defer cancel()
	interrupts := make(chan os.Signal, 1)
	signal.Notify(interrupts, os.Interrupt)
	defer signal.Stop(interrupts)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		select {
		case <-interrupts:
			cancel()
		case <-pctx.Done():
		}
	}()
	o := c.session.Prompt(pctx, text, l)
	cancel()
	wg.Wait()
	return o
}

// repl reads prompts line by line until end of input or /exit.
func (c *chat) repl(ctx context.Context, stdout io.Writer, color, interactive bool) int {
	p := newPrinter(stdout, stdout, color)
	if interactive {
		fmt.Fprintln(stdout, "agent-lsp chat — Ctrl-C cancels a running answer, Ctrl-D or /exit quits.")
	}
	// While idle, Ctrl-C only prints a hint: quitting is Ctrl-D.
	idle := make(chan os.Signal, 1)
	for {
		if interactive {
			fmt.Fprint(stdout, p.style(ansiBold, "> "))
		}
		signal.Notify(idle, os.Interrupt)
		line, err := c.readLine(ctx, idle, stdout, interactive)
		signal.Stop(idle)
		if err != nil {
			if interactive {
				fmt.Fprintln(stdout)
			}
			return 0
		}
		line = strings.TrimSpace(line)
		switch line {
		case "":
			continue
		case "/exit", "/quit":
			return 0
		case "/compact":
			c.compact(ctx, p)
			continue
		case "/session":
			fmt.Fprintf(stdout, "session %s\n", c.session.ID())
			continue
		}
		if handled, err := c.rewind(ctx, line, stdout); handled {
			if err != nil {
				p.OnEvent(agent.Event{Kind: agent.EventError, Err: err})
			}
			continue
		}
		if msg, handled, err := c.ctl.command(line); handled {
			if err != nil {
				p.OnEvent(agent.Event{Kind: agent.EventError, Err: err})
			} else {
				fmt.Fprintln(stdout, msg)
			}
			continue
		}
		c.promptInterruptible(ctx, c.attach(ctx, line, p), p)
		if ctx.Err() != nil {
			return 1
		}
	}
}

// attach returns the prompt with its @mentioned files attached, and says
// which mentions could not be.
func (c *chat) attach(ctx context.Context, prompt string, p *printer) string {
	text, notes := c.ctl.attach(ctx, prompt)
	for _, n := range notes {
		p.write(p.progress, p.style(ansiRed, n)+"\n")
	}
	return text
}

// compact runs a manual compaction and reports it.
func (c *chat) compact(ctx context.Context, p *printer) {
	res, err := c.session.Compact(ctx, p)
	switch {
	case err != nil:
		p.OnEvent(agent.Event{Kind: agent.EventError, Err: fmt.Errorf("compact: %w", err)})
	case res.Elided == 0 && res.Summarised == 0:
		p.write(p.progress, p.style(ansiDim, fmt.Sprintf("[nothing to compact: about %d tokens, all recent]", res.BeforeTokens))+"\n")
	}
}

func (c *chat) readLine(ctx context.Context, idle <-chan os.Signal, stdout io.Writer, interactive bool) (string, error) {
	rctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type result struct {
		line string
		err  error
	}
	done := make(chan result, 1)
	go func() {
		line, err := c.approver.ReadLine(rctx)
		done <- result{line, err}
	}()
	for {
		select {
		case r := <-done:
			return r.line, r.err
		case <-idle:
			if interactive {
				fmt.Fprint(stdout, "\n(Ctrl-D or /exit quits)\n> ")
			}
		}
	}
}

func isTerminal(x any) bool {
	f, ok := x.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

func shellName() string {
	if runtime.GOOS == "windows" {
		return "cmd"
	}
	return "bash"
}

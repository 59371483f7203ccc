package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync"

	"golang.org/x/term"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/tools"
)

// chat is one terminal conversation: a session of the controller and the
// terminal it is shown on. What the session does lives in package control;
// the chat reads lines, renders events and updates, and asks on the
// terminal.
type chat struct {
	ctl      *chatControl // the session, and the commands the terminal renders itself
	p        *printer     // the answer on stdout, the rest on the progress output
	lines    lineReader   // the terminal approver's reader: it owns stdin
	sandbox  string       // the sandbox's status line, for the banner
	closeAll func() error
}

func runChat(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	f, fs, err := parseChatFlags(args, stderr)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			chatUsage(stdout, fs)
			return 0
		}
		fmt.Fprintf(stderr, "agent-lsp chat: %v (agent-lsp chat -h lists the flags)\n", err)
		return 2
	}
	if f.list {
		return listSessions(f, stdout, stderr)
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
	// (reasoning, tool activity, approvals, updates) goes to stderr.
	progress := stdout
	if f.prompt != "" {
		progress = stderr
	}
	p := newPrinter(stdout, progress, color)
	if color { // a terminal that shows styles shows rendered answers too
		p.renderMarkdown(terminalWidth(stdout))
	}
	c, err := newChat(ctx, f, fs, stdin, p, stderr, log)
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
		o, handled, err := c.runLine(ctx, f.prompt)
		if err != nil {
			fmt.Fprintf(stderr, "agent-lsp chat: %v\n", err)
			return 1
		}
		if !handled && (o.StopReason == agent.StopError || o.StopReason == agent.StopCancelled) {
			return 1 // the printer said why, once
		}
		return 0
	}
	return c.repl(ctx, stdout, interactive)
}

// runLine runs one line: a command the terminal renders, else a prompt
// (an MCP prompt's slash command too). Ctrl-C cancels it, not the
// program. handled is true for a command; its error is shown, not fatal.
func (c *chat) runLine(ctx context.Context, line string) (o agent.Outcome, handled bool, err error) {
	c.interruptible(ctx, func(ctx context.Context) {
		if handled, err = c.ctl.command(ctx, line); handled {
			return
		}
		o, err = c.ctl.prompt(ctx, line)
	})
	return o, handled, err
}

// interruptible runs f with a context that Ctrl-C cancels.
func (c *chat) interruptible(ctx context.Context, f func(context.Context)) {
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
	f(pctx)
	cancel()
	wg.Wait()
}

// repl reads prompts line by line until end of input or /exit.
func (c *chat) repl(ctx context.Context, stdout io.Writer, interactive bool) int {
	p := c.p
	if interactive {
		fmt.Fprintln(stdout, "agent-lsp chat — Ctrl-C cancels a running answer, Ctrl-D or /exit quits.")
		fmt.Fprint(stdout, chatCommandsHelp)
		fmt.Fprintln(stdout, c.ctl.windowLine(ctx))
		fmt.Fprintln(stdout, c.sandbox)
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
		}
		if _, _, err := c.runLine(ctx, line); err != nil {
			p.OnEvent(agent.Event{Kind: agent.EventError, Err: err})
		}
		if ctx.Err() != nil {
			return 1
		}
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
		line, err := c.lines.ReadLine(rctx)
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

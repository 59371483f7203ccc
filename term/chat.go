package term

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync"

	"go.uber.org/zap"
	"golang.org/x/term"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/agent/control"
)

// terminal is one terminal chat: its printer and its approver, which
// owns Stdin (the prompts, and the answers to the MCP trust questions,
// are read through it too).
type terminal struct {
	o           Options
	p           *printer // the answer on stdout, the rest on the progress output
	approver    *Approver
	interactive bool
	pending     []string // lines typed as a turn ended, read before the next (turn.go)
}

// newTerminal sets up the terminal: colours and markdown when Stdout is a
// terminal that shows them, the approver reading Stdin.
func newTerminal(o Options) *terminal {
	if o.Logger == nil {
		o.Logger = zap.NewNop()
	}
	color := !o.NoColor && isTerminal(o.Stdout) && os.Getenv("NO_COLOR") == ""
	// In one-shot mode stdout carries only the answer; everything else
	// (reasoning, tool activity, approvals, updates) goes to stderr.
	progress := o.Stdout
	if o.Prompt != "" {
		progress = o.Stderr
	}
	p := newPrinter(o.Stdout, progress, color)
	if color { // a terminal that shows styles shows rendered answers too
		p.renderMarkdown(terminalWidth(o.Stdout))
	}
	return &terminal{o: o, p: p, approver: NewApprover(o.Stdin, progress, color), interactive: isTerminal(o.Stdin)}
}

// Progress is where everything but the answer is shown.
func (t *terminal) Progress() io.Writer { return t.p.progress }

// Run is `agent-lsp chat`: it sets up the terminal and the session's
// world, opens the session and runs the one-shot prompt or the
// conversation, closes it all, and returns the exit code.
func Run(ctx context.Context, o Options) int {
	t := newTerminal(o)
	w, err := t.openWorld(ctx)
	if err != nil {
		fmt.Fprintf(o.Stderr, "agent-lsp chat: %v\n", err)
		return 1
	}
	return t.run(ctx, w)
}

// run opens the session and runs the one-shot prompt or the conversation;
// it closes w when done.
func (t *terminal) run(ctx context.Context, w chatWorld) int {
	c := &session{ctl: w.Controller, p: t.p}
	if err := c.open(ctx, t.o, w.Binding); err != nil {
		fmt.Fprintf(t.o.Stderr, "agent-lsp chat: %v\n", err)
		if cerr := w.Close(); cerr != nil {
			fmt.Fprintf(t.o.Stderr, "agent-lsp chat: %v\n", cerr)
		}
		return 1
	}
	defer func() {
		if err := w.Close(); err != nil {
			fmt.Fprintf(t.o.Stderr, "agent-lsp chat: %v\n", err)
		}
	}()
	if t.o.Prompt != "" {
		o, answered, err := t.runLine(ctx, c, t.o.Prompt)
		if err != nil {
			fmt.Fprintf(t.o.Stderr, "agent-lsp chat: %v\n", err)
			return 1
		}
		if !answered && (o.StopReason == agent.StopError || o.StopReason == agent.StopCancelled || o.StopReason == agent.StopSpendLimit) {
			return 1 // the printer said why, once (a spend cap: the answer is not finished)
		}
		return 0
	}
	code := t.repl(ctx, c, w.Sandbox)
	w.Controller.EndSessions(context.WithoutCancel(ctx), control.EndPromptExit) // the user left: SessionEnd (bounded)
	return code
}

// runLine runs one line through the session: a command or a prompt.
// Ctrl-C cancels it, not the program. answered is true for a command
// answered without the model; its error is shown, not fatal.
func (t *terminal) runLine(ctx context.Context, c *session, line string) (o agent.Outcome, answered bool, err error) {
	t.interruptible(ctx, func(ctx context.Context) {
		o, answered, err = c.run(ctx, line)
	})
	return o, answered, err
}

// interruptible runs f with a context that Ctrl-C cancels.
func (t *terminal) interruptible(ctx context.Context, f func(context.Context)) {
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

// CommandsHelp lists the conversation's commands, for -h and the banner.
const CommandsHelp = `commands: /help /mode [m] /model [m] /compact /clear /rewind [n] /worktree [action] /budget [caps] /session /sessions /exit
  (/help describes them, and lists the MCP prompts as /mcp__<server>__<prompt>)
`

// repl reads prompts line by line until end of input or /exit.
func (t *terminal) repl(ctx context.Context, c *session, sandbox string) int {
	stdout, p := t.o.Stdout, t.p
	if t.interactive {
		fmt.Fprintln(stdout, "agent-lsp chat — Ctrl-C cancels a running answer, Ctrl-D or /exit quits.")
		fmt.Fprint(stdout, CommandsHelp)
		fmt.Fprintln(stdout, "  while it works, Enter queues a line and /steer <message> steers the running turn")
		fmt.Fprintln(stdout, c.windowLine(ctx))
		fmt.Fprintln(stdout, sandbox)
	}
	// While idle, Ctrl-C only prints a hint: quitting is Ctrl-D.
	idle := make(chan os.Signal, 1)
	for {
		if t.interactive {
			fmt.Fprint(stdout, p.style(ansiBold, "> "))
		}
		signal.Notify(idle, os.Interrupt)
		line, err := t.readLine(ctx, idle)
		signal.Stop(idle)
		if err != nil {
			if t.interactive {
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
		if t.interactive { // what is typed meanwhile is queued or steers (turn.go)
			if t.turn(ctx, c, line) {
				return 0
			}
		} else if _, _, err := t.runLine(ctx, c, line); err != nil {
			p.OnEvent(agent.Event{Kind: agent.EventError, Err: err})
		}
		if ctx.Err() != nil {
			return 1
		}
	}
}

// readLine reads the next line through the approver (it owns stdin); a
// Ctrl-C meanwhile shows the hint to quit.
func (t *terminal) readLine(ctx context.Context, idle <-chan os.Signal) (string, error) {
	if len(t.pending) > 0 {
		line := t.pending[0]
		t.pending = t.pending[1:]
		return line, nil
	}
	rctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type result struct {
		line string
		err  error
	}
	done := make(chan result, 1)
	go func() {
		line, err := t.approver.ReadLine(rctx)
		done <- result{line, err}
	}()
	for {
		select {
		case r := <-done:
			return r.line, r.err
		case <-idle:
			if t.interactive {
				fmt.Fprint(t.o.Stdout, "\n(Ctrl-D or /exit quits)\n> ")
			}
		}
	}
}

func isTerminal(x any) bool {
	f, ok := x.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

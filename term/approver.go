package term

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/agent-lsp/agent-lsp/permission"
)

// maxDiffLines caps the diff shown in a prompt; the rest is summarised.
const maxDiffLines = 40

// maxAttempts is how many unreadable answers are tolerated before denying.
const maxAttempts = 3

// Approver asks on a terminal: it prints a box describing the
// action and reads y / a / n.
//
// It owns In from its first question on: one goroutine, started lazily,
// reads In line by line for the approver's lifetime and hands lines over a
// channel, so that a question can be abandoned when its context ends. That
// goroutine exits when In reaches EOF or fails (close In to stop it); until
// then it may hold one line read ahead for the next question. A REPL
// sharing the terminal should read its own input through ReadLine.
type Approver struct {
	In    io.Reader // answers, one per line
	Out   io.Writer
	Color bool // ANSI colours for the risk and the diff

	start   sync.Once
	lines   chan string // closed after the reader stops; readErr then holds why
	readErr error
	gate    askGate // a question's answer is never typeahead (typeahead.go)
}

// NewApprover returns an approver reading answers from in and
// writing prompts to out.
func NewApprover(in io.Reader, out io.Writer, color bool) *Approver {
	return &Approver{In: in, Out: out, Color: color}
}

func (t *Approver) startReading() {
	t.lines = make(chan string)
	go t.readLoop()
}

func (t *Approver) readLoop() {
	r := bufio.NewReader(t.In)
	for {
		line, err := r.ReadString('\n')
		if line != "" {
			t.lines <- strings.TrimRight(line, "\r\n")
		}
		if err != nil {
			t.readErr = err // published by close
			close(t.lines)
			return
		}
	}
}

// ReadLine returns the next line of In, or ctx's error if it ends first,
// or io.EOF (or the read error) once In is exhausted.
func (t *Approver) ReadLine(ctx context.Context) (string, error) {
	t.start.Do(t.startReading)
	select {
	case line, ok := <-t.lines:
		if !ok {
			return "", t.readErr
		}
		return line, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// Approve implements Approver. An empty line, n or no deny; y or yes allow
// once; a allows for the session when offered. Anything else is asked
// again, at most three times in all, then denied. End of input denies.
func (t *Approver) Approve(ctx context.Context, a permission.Action, offerSession bool) (permission.Decision, error) {
	t.gate.begin()
	defer t.gate.end()
	if err := t.write(t.box(a)); err != nil {
		return permission.Deny, err
	}
	for range maxAttempts {
		if err := t.write(t.choices(offerSession)); err != nil {
			return permission.Deny, err
		}
		line, err := t.ReadLine(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return permission.Deny, ctx.Err()
			}
			if errors.Is(err, io.EOF) {
				return permission.Deny, t.write("\n(no answer: denied)\n")
			}
			return permission.Deny, fmt.Errorf("read answer: %w", err)
		}
		switch strings.ToLower(strings.TrimSpace(line)) {
		case "y", "yes":
			return permission.AllowOnce, nil
		case "a":
			if offerSession {
				return permission.AllowSession, nil
			}
			if err := t.write("allow for this session is not offered for " + a.Risk.String() + " risk\n"); err != nil {
				return permission.Deny, err
			}
		case "n", "no", "":
			return permission.Deny, nil
		default:
			if err := t.write("please answer y or n" + map[bool]string{true: " (or a)", false: ""}[offerSession] + "\n"); err != nil {
				return permission.Deny, err
			}
		}
	}
	return permission.Deny, t.write("(no valid answer: denied)\n")
}

func (t *Approver) write(s string) error {
	if _, err := io.WriteString(t.Out, s); err != nil {
		return fmt.Errorf("write prompt: %w", err)
	}
	return nil
}

func (t *Approver) paint(color, s string) string {
	if !t.Color {
		return s
	}
	return color + s + ansiReset
}

func riskColor(r permission.Risk) string {
	switch r {
	case permission.Low:
		return ansiGreen
	case permission.Medium:
		return ansiYellow
	case permission.High:
		return ansiRed
	}
	return ansiBold + ansiRed
}

// box renders the question. Everything shown comes from the model, so it
// is rendered with Visible: a diff must not be able to move the cursor and
// paint over the question, nor a bidi override reorder a command.
func (t *Approver) box(a permission.Action) string {
	var b strings.Builder
	b.WriteString("╭─ permission: " + permission.VisibleLine(a.Tool, 0) + "\n")
	if a.Summary != "" {
		b.WriteString("│ " + permission.VisibleLine(a.Summary, 0) + "\n")
	}
	if a.Command != "" && !strings.Contains(a.Summary, a.Command) {
		for _, l := range strings.Split(a.Command, "\n") {
			b.WriteString("│ $ " + permission.Visible(l) + "\n")
		}
	}
	b.WriteString("│ risk: " + t.paint(riskColor(a.Risk), a.Risk.String()) + "\n")
	for _, r := range a.Reasons {
		b.WriteString("│  • " + permission.VisibleLine(r, 0) + "\n")
	}
	if a.Diff != "" {
		lines := strings.Split(strings.TrimRight(a.Diff, "\n"), "\n")
		shown := lines
		if len(shown) > maxDiffLines {
			shown = shown[:maxDiffLines]
		}
		for _, l := range shown {
			b.WriteString("│ " + t.diffLine(permission.Visible(l)) + "\n")
		}
		if more := len(lines) - len(shown); more > 0 {
			fmt.Fprintf(&b, "│ … %d more diff lines not shown\n", more)
		}
	}
	b.WriteString("╰─\n")
	return b.String()
}

func (t *Approver) diffLine(l string) string {
	switch {
	case strings.HasPrefix(l, "+++"), strings.HasPrefix(l, "---"):
		return t.paint(ansiBold, l)
	case strings.HasPrefix(l, "+"):
		return t.paint(ansiGreen, l)
	case strings.HasPrefix(l, "-"):
		return t.paint(ansiRed, l)
	case strings.HasPrefix(l, "@@"):
		return t.paint(ansiCyan, l)
	}
	return l
}

func (t *Approver) choices(offerSession bool) string {
	if offerSession {
		return "[y] allow  [a] allow for this session  [n] deny > "
	}
	return "[y] allow  [n] deny > "
}

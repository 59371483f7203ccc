package term

import (
	"fmt"
	"strings"
)

// terminalCommands are the commands only the terminal has: they list
// what the terminal shows, or leave it.
var terminalCommands = []struct{ name, desc string }{
	{"/help", "List the commands"},
	{"/session", "Show this session's id (--resume takes it)"},
	{"/sessions", "List the stored sessions, this workspace's first"},
	{"/exit", "Quit (Ctrl-D too)"},
}

// known reports whether name is a command of the session or of the
// terminal.
func (c *session) known(name string) bool {
	for _, k := range c.commandNames() {
		if k == name {
			return true
		}
	}
	return false
}

func (c *session) commandNames() []string {
	var names []string
	for _, cmd := range c.sess.Commands() {
		names = append(names, cmd.Name)
	}
	for _, t := range terminalCommands {
		names = append(names, t.name)
	}
	return append(names, "/quit")
}

// unknownCommand refuses a command, naming the closest known one.
func unknownCommand(name string, known []string) error {
	best, bestD := "", 3 // a suggestion within two edits
	for _, k := range known {
		if d := editDistance(strings.ToLower(name), k); d < bestD {
			best, bestD = k, d
		}
	}
	if best != "" {
		return fmt.Errorf("unknown command %s: did you mean %s? (/help lists the commands; nothing was sent)", name, best)
	}
	return fmt.Errorf("unknown command %s (/help lists the commands; nothing was sent)", name)
}

// editDistance is the Levenshtein distance of a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

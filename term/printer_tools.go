package term

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agent-lsp/agent-lsp/permission"
)

// toolCallText is a tool call as a person reads it: what it touches and
// how much, never the raw argument JSON with its escaped newlines (an edit's
// text is shown by the review's diff, not here). A tool the chat does not
// know (an MCP tool) shows its arguments compacted. A command is shown
// whole on one line, its middle cut when long, never its tail; the printer
// makes the rest visible.
func toolCallText(name string, raw json.RawMessage) string {
	var a struct {
		Path       string `json:"path"`
		Offset     int    `json:"offset"`
		Limit      int    `json:"limit"`
		OldString  string `json:"old_string"`
		NewString  string `json:"new_string"`
		ReplaceAll bool   `json:"replace_all"`
		Content    string `json:"content"`
		Pattern    string `json:"pattern"`
		Glob       string `json:"glob"`
		Command    string `json:"command"`
		Items      []any  `json:"items"`
		// Description and Prompt are a task call's.
		Description string `json:"description"`
		Prompt      string `json:"prompt"`
	}
	if json.Unmarshal(raw, &a) != nil {
		return name + " " + compactArgs(raw)
	}
	switch name {
	case "read_file":
		s := "read_file " + a.Path
		if a.Offset > 0 || a.Limit > 0 {
			s += fmt.Sprintf(" (from line %d", max(a.Offset, 1))
			if a.Limit > 0 {
				s += fmt.Sprintf(", %d lines", a.Limit)
			}
			s += ")"
		}
		return s
	case "edit_file":
		s := fmt.Sprintf("edit_file %s (-%s +%s)", a.Path, plural(lineCount(a.OldString), "line"), plural(lineCount(a.NewString), "line"))
		if a.ReplaceAll {
			s += ", every occurrence"
		}
		return s
	case "write_file":
		return fmt.Sprintf("write_file %s (%s)", a.Path, plural(lineCount(a.Content), "line"))
	case "glob":
		return "glob " + a.Pattern + inPath(a.Path)
	case "grep":
		s := "grep " + quoteIfSpaced(a.Pattern) + inPath(a.Path)
		if a.Glob != "" {
			s += " (" + a.Glob + ")"
		}
		return s
	case "run_bash":
		return "run_bash $ " + permission.VisibleLine(strings.TrimSpace(a.Command), 160)
	case "todo_write":
		return fmt.Sprintf("todo_write (%s)", plural(len(a.Items), "item"))
	case "task":
		return "task: " + a.Description
	}
	return name + " " + compactArgs(raw)
}

func inPath(p string) string {
	if p == "" || p == "." {
		return ""
	}
	return " in " + p
}

func quoteIfSpaced(s string) string {
	if strings.ContainsAny(s, " \t") {
		return `"` + s + `"` // as typed: %q would double every backslash of a regexp
	}
	return s
}

// lineCount counts the lines of s, a last line without its newline too.
func lineCount(s string) int {
	if s == "" {
		return 0
	}
	return strings.Count(strings.TrimSuffix(s, "\n"), "\n") + 1
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

package hooks

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
)

// The events, by Claude Code's names.
const (
	SessionStart     = "SessionStart"
	UserPromptSubmit = "UserPromptSubmit"
	PreToolUse       = "PreToolUse"
	PostToolUse      = "PostToolUse"
	PreCompact       = "PreCompact"
	Stop             = "Stop"
	SubagentStop     = "SubagentStop"
	Notification     = "Notification"
	SessionEnd       = "SessionEnd"
)

// Events are the events a configuration may name.
var Events = []string{SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, PreCompact, Stop,
	SubagentStop, Notification, SessionEnd}

// Hook is one command run at an event.
type Hook struct {
	Type    string  `json:"type"` // "command"
	Command string  `json:"command"`
	Timeout float64 `json:"timeout,omitempty"` // seconds; 0: 60
}

// Matcher is a group of hooks and what it applies to, as in Claude Code:
// PreToolUse and PostToolUse a tool name, SubagentStop the subagent's
// type, Notification its notification_type, SessionStart its source,
// SessionEnd its reason, PreCompact its trigger ("A|B", a regular
// expression; "" or "*": all).
type Matcher struct {
	Matcher string `json:"matcher,omitempty"`
	Hooks   []Hook `json:"hooks"`
}

// Config is the `hooks` object: event → matchers.
type Config map[string][]Matcher

// maxSettingsFile bounds a settings file.
const maxSettingsFile = 1 << 20

// Parse reads a `hooks` object and checks it: known events, command hooks
// with a command, matchers that compile.
func Parse(raw json.RawMessage) (Config, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var c Config
	if err := json.Unmarshal(raw, &c); err != nil {
		return nil, fmt.Errorf("hooks: %w", err)
	}
	for event, ms := range c {
		if !slices.Contains(Events, event) {
			return nil, fmt.Errorf("hooks: unknown event %q (known: %s)", event, strings.Join(Events, ", "))
		}
		for i, m := range ms {
			if _, err := compileMatcher(m.Matcher); err != nil {
				return nil, fmt.Errorf("hooks.%s[%d].matcher: %w", event, i, err)
			}
			for j, h := range m.Hooks {
				if h.Type != "command" {
					return nil, fmt.Errorf("hooks.%s[%d].hooks[%d]: type %q: only \"command\" hooks run here", event, i, j, h.Type)
				}
				if strings.TrimSpace(h.Command) == "" {
					return nil, fmt.Errorf("hooks.%s[%d].hooks[%d]: no command", event, i, j)
				}
				if h.Timeout < 0 {
					return nil, fmt.Errorf("hooks.%s[%d].hooks[%d]: negative timeout", event, i, j)
				}
			}
		}
	}
	return c, nil
}

// ReadSettingsFile reads the `hooks` of a settings file (a JSON object
// with a "hooks" key, as Claude Code's settings.json).
func ReadSettingsFile(path string) (Config, error) {
	data, err := readBounded(path)
	if err != nil {
		return nil, err
	}
	var s struct {
		Hooks json.RawMessage `json:"hooks"`
	}
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	c, err := Parse(s.Hooks)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return c, nil
}

func readBounded(path string) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() || fi.Size() > maxSettingsFile {
		return nil, fmt.Errorf("%s: not a regular file of at most %d bytes", path, maxSettingsFile)
	}
	return os.ReadFile(path)
}

// compileMatcher compiles a tool matcher: "" and "*" match every tool; a
// plain name ("Bash", "Edit|Write") matches exactly; anything else is a
// regular expression matched against the whole name.
func compileMatcher(m string) (*regexp.Regexp, error) {
	if m == "" || m == "*" {
		return nil, nil
	}
	return regexp.Compile("^(?:" + m + ")$")
}

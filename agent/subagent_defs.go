package agent

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/agent-lsp/agent-lsp/tools"
)

// MaxSubagentFile bounds a custom subagent's file: its body goes into
// every request of the child.
const MaxSubagentFile = 64 << 10

// subagentName is what a custom subagent may be called: the task tool's
// agent argument names it, and a tool list shows it. At most 64 bytes,
// checked apart (store.go's idPattern says why).
var subagentName = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]*$`)

// subagentFront is the front matter of a subagent file, the layout the
// peers use (.claude/agents/*.md): tools as "Read, Grep" or a YAML list.
type subagentFront struct {
	Name        string    `yaml:"name"`
	Description string    `yaml:"description"`
	Tools       yaml.Node `yaml:"tools"`
	Model       string    `yaml:"model"`
}

// ParseSubagentFile reads a custom subagent's Markdown file: YAML front
// matter between "---" lines (name, description, tools, model), the body
// its instructions. fallbackName (the file's base name) names it when the
// front matter does not. Tools keep the names the file gives; the
// peers' names (Read, Grep, Glob, Edit, Write, Bash) are read as ours.
func ParseSubagentFile(data []byte, fallbackName string) (SubagentDef, error) {
	if len(data) > MaxSubagentFile {
		return SubagentDef{}, fmt.Errorf("larger than %d bytes", MaxSubagentFile)
	}
	if !strings.HasPrefix(strings.TrimPrefix(strings.ReplaceAll(string(data), "\r\n", "\n"), "\ufeff"), "---\n") {
		return SubagentDef{}, errors.New(`no front matter (the file must start with a "---" line)`)
	}
	var f subagentFront
	// Fields of the peers' own (color, ...) are ignored.
	body, err := tools.ReadFrontMatter(data, &f)
	if err != nil {
		return SubagentDef{}, err
	}
	d := SubagentDef{Name: strings.TrimSpace(f.Name), Description: strings.TrimSpace(f.Description),
		Model: strings.TrimSpace(f.Model), Prompt: strings.TrimSpace(body)}
	if d.Name == "" {
		d.Name = fallbackName
	}
	if len(d.Name) > 64 || !subagentName.MatchString(d.Name) {
		return SubagentDef{}, fmt.Errorf("name %q: want at most 64 lower-case letters, digits, - and _", d.Name)
	}
	if d.Description == "" {
		return SubagentDef{}, errors.New("no description: the model would not know when to use it")
	}
	tools, err := subagentTools(f.Tools)
	if err != nil {
		return SubagentDef{}, err
	}
	d.Tools = tools
	return d, nil
}

// peerTools maps the peers' tool names to ours.
var peerTools = map[string]string{"read": "read_file", "grep": "grep", "glob": "glob", "edit": "edit_file",
	"multiedit": "edit_file", "write": "write_file", "bash": "run_bash", "todowrite": "todo_write"}

// subagentTools reads tools: absent (nil: the defaults), "a, b" or a list.
func subagentTools(n yaml.Node) ([]string, error) {
	var names []string
	switch n.Kind {
	case 0:
		return nil, nil
	case yaml.ScalarNode:
		for _, s := range strings.Split(n.Value, ",") {
			names = append(names, strings.TrimSpace(s))
		}
	case yaml.SequenceNode:
		if err := n.Decode(&names); err != nil {
			return nil, fmt.Errorf("tools: %w", err)
		}
	default:
		return nil, errors.New("tools: want a list of tool names")
	}
	out := []string{}
	for _, s := range names {
		if s == "" {
			continue
		}
		if ours, ok := peerTools[strings.ToLower(s)]; ok {
			s = ours
		}
		out = append(out, s)
	}
	return out, nil
}

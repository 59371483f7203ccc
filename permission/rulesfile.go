package permission

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// Persistent permission rules: lines the user keeps in a JSON file,
//
//	{"allow": ["run_bash: go test ./...", "edit_file: src/**", "mcp__github__*"],
//	 "deny":  ["run_bash: git push *"]}
//
// each "TOOL" or "TOOL: PATTERN". TOOL is a name or a glob over tool
// names (path.Match: "mcp__github__*"). PATTERN is, for run_bash, shell
// words compared with the parsed command (rules_match.go), a trailing
// " *" making it a prefix; for a tool acting on a path, a doublestar glob
// over the workspace-relative slash path ("src/**"). A rule without a
// pattern covers every call of the tool.

// RuleKind says what a rule does.
type RuleKind string

const (
	RuleAllow RuleKind = "allow"
	RuleDeny  RuleKind = "deny"
)

// RuleSource says whose file a rule comes from.
type RuleSource string

const (
	// SourceUser is the user's own file (<user config dir>/agent-lsp/permissions.json).
	SourceUser RuleSource = "user"
	// SourceWorkspace is the workspace's .agents/permissions.json: its
	// allow rules apply only once the user trusted its content.
	SourceWorkspace RuleSource = "workspace"
)

// Rule is one line of a rules file.
type Rule struct {
	ID       string // stable: source, kind and text hashed (rule ids survive edits of other lines)
	Tool     string // a tool name or a glob over tool names
	Pattern  string // "" covers every call of Tool
	Decision RuleKind
	Source   RuleSource

	words  []string // run_bash: the pattern's words, without the trailing "*"
	prefix bool     // run_bash: the pattern ended in " *"
}

// String is the rule as written in its file: "TOOL" or "TOOL: PATTERN".
func (r Rule) String() string {
	if r.Pattern == "" {
		return r.Tool
	}
	return r.Tool + ": " + r.Pattern
}

// rulesDoc is the file's format. Unknown fields are kept out of it, so a
// save rewrites only these two lists.
type rulesDoc struct {
	Allow []string `json:"allow,omitempty"`
	Deny  []string `json:"deny,omitempty"`
}

// parseRules reads a rules file's content. A file that is not JSON of
// this shape is an error and gives no rules; a line that does not parse
// is an error of its own and the others still apply.
func parseRules(data []byte, src RuleSource) ([]Rule, []error, error) {
	var doc rulesDoc
	if len(strings.TrimSpace(string(data))) == 0 {
		return nil, nil, nil
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, nil, fmt.Errorf("not a rules file ({\"allow\": [...], \"deny\": [...]}): %w", err)
	}
	var rules []Rule
	var errs []error
	for _, list := range []struct {
		kind  RuleKind
		lines []string
	}{{RuleDeny, doc.Deny}, {RuleAllow, doc.Allow}} {
		for _, line := range list.lines {
			r, err := ParseRule(line, list.kind, src)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			rules = append(rules, r)
		}
	}
	return rules, errs, nil
}

// ParseRule parses one line, "TOOL" or "TOOL: PATTERN".
func ParseRule(line string, kind RuleKind, src RuleSource) (Rule, error) {
	tool, pattern, _ := strings.Cut(line, ":")
	tool, pattern = strings.TrimSpace(tool), strings.TrimSpace(pattern)
	r := Rule{Tool: tool, Pattern: pattern, Decision: kind, Source: src}
	if tool == "" || strings.ContainsAny(tool, " \t/") {
		return Rule{}, fmt.Errorf("rule %q: want \"TOOL\" or \"TOOL: PATTERN\"", line)
	}
	if _, err := path.Match(tool, ""); err != nil {
		return Rule{}, fmt.Errorf("rule %q: tool glob: %w", line, err)
	}
	if pattern != "" {
		if tool == RunBashTool {
			words, prefix, err := patternWords(pattern)
			if err != nil {
				return Rule{}, fmt.Errorf("rule %q: %w", line, err)
			}
			r.words, r.prefix = words, prefix
		} else if !doublestar.ValidatePattern(pattern) {
			return Rule{}, fmt.Errorf("rule %q: not a valid path glob", line)
		}
	}
	sum := sha256.Sum256([]byte(string(src) + "\x00" + string(kind) + "\x00" + r.String()))
	r.ID = string(src)[:1] + "-" + hex.EncodeToString(sum[:4])
	return r, nil
}

// RunBashTool is the shell tool's name, whose rule patterns are commands.
const RunBashTool = "run_bash"

// Matches reports whether the rule covers a.
func (r Rule) Matches(a Action) bool { return r.matches(a, &parsedCommand{command: a.Command}) }

// parsedCommand parses an action's command once for every rule it is
// compared with.
type parsedCommand struct {
	command string
	done    bool
	words   []string
	simple  bool
}

func (p *parsedCommand) get() ([]string, bool) {
	if !p.done {
		p.words, p.simple = simpleCommand(p.command)
		p.done = true
	}
	return p.words, p.simple
}

func (r Rule) matches(a Action, cmd *parsedCommand) bool {
	if ok, _ := path.Match(r.Tool, a.Tool); !ok {
		return false
	}
	if r.Pattern == "" {
		return true
	}
	switch {
	case a.Tool == RunBashTool:
		if r.words == nil {
			return false
		}
		got, ok := cmd.get()
		return ok && wordsMatch(got, r.words, r.prefix)
	case a.Path != "":
		ok, _ := doublestar.Match(r.Pattern, a.Path)
		return ok
	}
	return false
}

// RuleFor is the rule an "Always allow" of a would save ("" when none can
// be written exactly): the parsed command of a simple run_bash call, the
// path of a tool acting on one, the tool alone otherwise. A rule that
// would not read back as one matching a (a word only $'…' quoting can
// write, say) is none.
func RuleFor(a Action) string {
	line := ruleFor(a)
	if line == "" {
		return ""
	}
	if r, err := ParseRule(line, RuleAllow, SourceUser); err != nil || !r.Matches(a) {
		return ""
	}
	return line
}

func ruleFor(a Action) string {
	switch {
	case a.Tool == "" || strings.ContainsAny(a.Tool, " \t/:*?["):
		return ""
	case a.Tool == RunBashTool:
		words, ok := simpleCommand(a.Command)
		quoted := quoteWords(words)
		if !ok || quoted == "" {
			return ""
		}
		return RunBashTool + ": " + quoted
	case a.Path != "":
		if strings.ContainsAny(a.Path, "*?[{\\") {
			return "" // a glob character would widen the rule beyond this path
		}
		return a.Tool + ": " + a.Path
	case a.Scope != "" && a.Scope != a.Tool:
		// The session answer is narrower than the whole tool (web_fetch
		// remembers a host): a rule on the tool would widen it.
		return ""
	}
	return a.Tool
}

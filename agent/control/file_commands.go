package control

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/tools"
)

// Custom commands are Markdown files: the body is the prompt, with
// $ARGUMENTS (the whole argument line) and $1…$9 (its words) replaced;
// the front matter gives the description and the argument hint. They are
// instructions from their folder's owner, like AGENTS.md: running one is
// the user's own prompt, and nothing in it widens a permission (a
// command's allowed-tools is shown, never granted).

// commandFolders are where commands live: ours, then the peers'.
var commandFolders = []struct{ dir, suffix string }{
	{".agents/commands", ".md"}, {".claude/commands", ".md"}, {".github/prompts", ".prompt.md"},
}

// maxCommandFile bounds a command's file.
const maxCommandFile = 64 << 10

// fileCommandName is a command file's name as a command's, at most 64
// bytes (checked apart: a bounded repetition compiles to that many copies
// of the class, paid at every start of the binary).
var fileCommandName = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_.-]*$`)

// fileCommand is one command read from a file.
type fileCommand struct {
	Command
	body string
}

type commandFront struct {
	Description  string `yaml:"description"`
	ArgumentHint string `yaml:"argument-hint"`
	AllowedTools string `yaml:"allowed-tools"`
}

// UserCommandsDir is where the user's own commands live:
// <user config dir>/agent-lsp/commands ("" without a config dir).
func UserCommandsDir() string {
	dir, err := os.UserConfigDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "agent-lsp", "commands")
}

// fileCommands reads the commands of ws's roots and of userDir, each name
// once (the workspace's first, then the user's), never a built-in's name,
// sorted by name.
func fileCommands(ws *tools.Workspace, userDir string) []fileCommand {
	type base struct{ dir, suffix, source string }
	var bases []base
	if ws != nil {
		for _, root := range ws.Roots() {
			for _, f := range commandFolders {
				real, err := ws.Resolve(filepath.Join(root, f.dir))
				if err != nil || tools.CredentialRead(real) {
					continue
				}
				bases = append(bases, base{real, f.suffix, "workspace"})
			}
		}
	}
	if userDir != "" {
		bases = append(bases, base{userDir, ".md", "user"})
	}
	seen := map[string]bool{}
	for _, c := range builtinCommands {
		seen[c.Name] = true
	}
	var out []fileCommand
	for _, b := range bases {
		for _, c := range readCommandFolder(b.dir, b.suffix, b.source) {
			if !seen[c.Name] {
				seen[c.Name] = true
				out = append(out, c)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// readCommandFolder reads the command files directly in dir, through a
// root there: a file that is a symlink leading out is not followed.
func readCommandFolder(dir, suffix, source string) []fileCommand {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil
	}
	defer root.Close()
	d, err := root.Open(".")
	if err != nil {
		return nil
	}
	names, _ := d.Readdirnames(-1)
	d.Close()
	var out []fileCommand
	for _, file := range names {
		name, ok := strings.CutSuffix(file, suffix)
		if !ok || len(name) > 64 || !fileCommandName.MatchString(name) {
			continue
		}
		data, err := tools.ReadRootFile(root, file, maxCommandFile)
		if err != nil {
			continue
		}
		var front commandFront
		body, err := tools.ReadFrontMatter(data, &front)
		if err != nil || strings.TrimSpace(body) == "" {
			continue
		}
		desc := strings.TrimSpace(front.Description)
		if desc == "" {
			desc = firstLine(body)
		}
		if t := strings.TrimSpace(front.AllowedTools); t != "" {
			desc += " (asks for: " + t + ")"
		}
		args := []tools.PromptArgument{}
		if h := strings.TrimSpace(front.ArgumentHint); h != "" {
			args = append(args, tools.PromptArgument{Name: "arguments", Description: h})
		}
		out = append(out, fileCommand{Command: Command{Name: "/" + name, Description: desc, Arguments: args,
			Source: source + ":" + filepath.Join(dir, file)}, body: body})
	}
	return out
}

// firstLine is a body's first non-empty line, cut, for a description.
func firstLine(body string) string {
	for _, l := range strings.Split(body, "\n") {
		if l = strings.TrimSpace(strings.TrimLeft(l, "# ")); l != "" {
			if r := []rune(l); len(r) > 80 {
				return string(r[:79]) + "…"
			}
			return l
		}
	}
	return ""
}

// positional matches $1…$9 in a command's body.
var positional = regexp.MustCompile(`\$([1-9])`)

// expandCommand is a command's prompt for an argument line: $ARGUMENTS is
// the line, $1…$9 its words (missing ones empty); a body that uses
// neither gets the line after it.
func expandCommand(body, args string) string {
	words, err := splitWords(args)
	if err != nil {
		words = strings.Fields(args)
	}
	used := strings.Contains(body, "$ARGUMENTS") || positional.MatchString(body)
	text := strings.ReplaceAll(body, "$ARGUMENTS", args)
	text = positional.ReplaceAllStringFunc(text, func(m string) string {
		if i := int(m[1] - '1'); i < len(words) {
			return words[i]
		}
		return ""
	})
	if !used && strings.TrimSpace(args) != "" {
		text = strings.TrimRight(text, "\n") + "\n\n" + args
	}
	return strings.TrimSpace(text)
}

// runFileCommand runs a custom command or a skill's command as the user's
// prompt, its @mentions attached; ok is false when name is neither.
func (s *Session) runFileCommand(ctx context.Context, name, args string, l agent.Listener) (Result, bool) {
	for _, c := range fileCommands(s.b.Workspace, UserCommandsDir()) {
		if c.Name == name {
			text, mentions := s.attach(ctx, expandCommand(c.body, args), nil, nil)
			return Result{Outcome: s.run(ctx, text, nil, l), Command: name, Mentions: mentions}, true
		}
	}
	for _, sk := range tools.FindSkills(s.b.Workspace, tools.UserSkillsDir()) {
		if "/"+sk.Name == name {
			body, err := tools.SkillBody(sk)
			if err != nil {
				return Result{Outcome: agent.Outcome{StopReason: agent.StopError, Err: err}, Command: name}, true
			}
			text := fmt.Sprintf("Use the skill %s (its instructions follow) for: %s\n\n%s", sk.Name, args, body)
			return Result{Outcome: s.run(ctx, text, nil, l), Command: name}, true
		}
	}
	return Result{}, false
}

// fileAndSkillCommands are ws's and the user's custom commands, then the
// skills as commands (a skill named like a command is left to the command).
func fileAndSkillCommands(ws *tools.Workspace) []Command {
	var out []Command
	seen := map[string]bool{}
	for _, c := range builtinCommands {
		seen[c.Name] = true
	}
	for _, c := range fileCommands(ws, UserCommandsDir()) {
		seen[c.Name] = true
		out = append(out, c.Command)
	}
	for _, sk := range tools.FindSkills(ws, tools.UserSkillsDir()) {
		if name := "/" + sk.Name; !seen[name] {
			out = append(out, Command{Name: name, Description: sk.Description, Source: "skill:" + sk.Source,
				Arguments: []tools.PromptArgument{{Name: "task", Description: "what to use the skill for"}}})
		}
	}
	return out
}

// slashSkills lists the skills: name, where from, description.
func (s *Session) slashSkills(_ context.Context, _ string, _ agent.Listener) (Result, error) {
	skills := tools.FindSkills(s.b.Workspace, tools.UserSkillsDir())
	if len(skills) == 0 {
		return Result{Outcome: agent.Outcome{StopReason: agent.StopEndTurn,
			Text: "No skills. Add one as .agents/skills/<name>/SKILL.md in the workspace, or in " + tools.UserSkillsDir() + "."}}, nil
	}
	var b strings.Builder
	b.WriteString("Skills (the model loads one when a task matches it; /<name> uses one now):\n")
	for _, sk := range skills {
		fmt.Fprintf(&b, "- %s (%s): %s\n", sk.Name, sk.Source, sk.Description)
	}
	return Result{Outcome: agent.Outcome{StopReason: agent.StopEndTurn, Text: strings.TrimRight(b.String(), "\n")}}, nil
}

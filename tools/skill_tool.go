package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/agent-lsp/agent-lsp/permission"
)

// SkillName is the tool that loads a skill.
const SkillName = "skill"

// maxSkillFiles bounds the files a skill's listing names.
const maxSkillFiles = 50

type skillArgs struct {
	Name string `json:"name"`
	File string `json:"file,omitempty"`
}

type skillTool struct{ userDir func() string }

// NewSkill returns the skill tool: a skill's instructions (its SKILL.md
// body and the files it bundles), or one of its files.
func NewSkill() Tool { return skillTool{userDir: UserSkillsDir} }

func (skillTool) Name() string { return SkillName }

func (skillTool) Description() string {
	return "Load a skill the system prompt lists: its instructions and files. file reads one of them."
}

func (skillTool) Schema() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{` +
		`"name":{"type":"string"},` +
		`"file":{"type":"string","description":"path inside the skill"}},` +
		`"required":["name"],"additionalProperties":false}`)
}

func (skillTool) ReadOnly() bool { return true }

func (skillTool) Describe(_ context.Context, raw json.RawMessage, _ *Env) (permission.Action, error) {
	var a skillArgs
	if err := decodeArgs(raw, &a); err != nil {
		return permission.Action{}, err
	}
	summary := "load skill " + a.Name
	if a.File != "" {
		summary += ": " + a.File
	}
	return permission.Action{Tool: SkillName, Summary: permission.VisibleLine(summary, 0), ReadOnly: true}, nil
}

func (t skillTool) Run(_ context.Context, raw json.RawMessage, env *Env) (Result, error) {
	var a skillArgs
	if err := decodeArgs(raw, &a); err != nil {
		return Result{}, err
	}
	var ws *Workspace
	if env != nil {
		ws = env.Workspace
	}
	skills := FindSkills(ws, t.userDir())
	var skill *Skill
	for i := range skills {
		if skills[i].Name == a.Name {
			skill = &skills[i]
		}
	}
	if skill == nil {
		names := make([]string, len(skills))
		for i, s := range skills {
			names[i] = s.Name
		}
		return Result{}, fmt.Errorf("no skill %q; the skills are: %s", a.Name, strings.Join(names, ", "))
	}
	root, err := os.OpenRoot(skill.Dir)
	if err != nil {
		return Result{}, err
	}
	defer root.Close()
	if a.File != "" {
		return readSkillBundled(root, skill, a.File)
	}
	body, _, err := readSkillFile(root, ".")
	if err != nil {
		return Result{}, err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Skill %s (%s, %s)\n\n%s", skill.Name, skill.Source, skill.Dir, strings.TrimSpace(body))
	if files := skillFiles(root); len(files) > 0 {
		fmt.Fprintf(&b, "\n\nFiles of the skill (read one with file): %s", strings.Join(files, ", "))
	}
	return Result{Output: b.String()}, nil
}

// readSkillBundled reads one file of a skill, inside its folder only.
func readSkillBundled(root *os.Root, skill *Skill, name string) (Result, error) {
	data, err := ReadRootFile(root, filepath.Clean(name), maxSkillBundled)
	if err != nil {
		return Result{}, fmt.Errorf("skill %s: %w", skill.Name, err)
	}
	if !utf8.Valid(data) {
		return Result{}, fmt.Errorf("skill %s: %s is not text (%d bytes)", skill.Name, name, len(data))
	}
	return Result{Output: string(data)}, nil
}

// skillFiles lists a skill's files but SKILL.md (at most maxSkillFiles).
func skillFiles(root *os.Root) []string {
	var out []string
	_ = fs.WalkDir(root.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || len(out) >= maxSkillFiles {
			return fs.SkipDir
		}
		if d.Type().IsRegular() && p != "SKILL.md" {
			out = append(out, p)
		}
		return nil
	})
	return out
}

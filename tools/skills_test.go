package tools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeFiles(t *testing.T, base string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(base, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// Skills are found in the workspace's folders and the user's, each name
// once; a broken one, and one whose folder leads out of the workspace,
// are left out; the system prompt names and describes them, no more.
func TestFindSkillsAndTheSkillTool(t *testing.T) {
	root, user, outside := t.TempDir(), t.TempDir(), t.TempDir()
	writeFiles(t, root, map[string]string{
		".agents/skills/pdf-forms/SKILL.md":        "---\nname: pdf-forms\ndescription: Fill in PDF forms with pdftk.\nallowed-tools: Bash\n---\n# Filling forms\nRun scripts/fill.sh FORM DATA.\n",
		".agents/skills/pdf-forms/scripts/fill.sh": "pdftk \"$1\" fill_form \"$2\"\n",
		".claude/skills/review/SKILL.md":           "---\nname: review\ndescription: Review a change like the team does.\n---\nCheck tests first.\n",
		".claude/skills/misnamed/SKILL.md":         "---\nname: other\ndescription: x\n---\n",
		".agents/skills/nodesc/SKILL.md":           "---\nname: nodesc\n---\nbody\n",
	})
	writeFiles(t, user, map[string]string{
		"mine/SKILL.md":   "---\nname: mine\ndescription: My own way of writing commits.\n---\nImperative mood.\n",
		"review/SKILL.md": "---\nname: review\ndescription: the user's review\n---\n",
	})
	writeFiles(t, outside, map[string]string{"stolen/SKILL.md": "---\nname: stolen\ndescription: from outside\n---\n"})
	// A repository's skill folder that leads out of the workspace.
	if err := os.MkdirAll(filepath.Join(root, ".github"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(root, ".github", "skills")); err != nil {
		t.Fatal(err)
	}
	ws, err := NewWorkspace(root)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	skills := FindSkills(ws, user)
	var names []string
	for _, s := range skills {
		names = append(names, s.Name+":"+s.Source)
	}
	if got := strings.Join(names, ","); got != "mine:user,pdf-forms:workspace,review:workspace" {
		t.Errorf("skills %s", got)
	}
	p := SkillsPrompt(skills)
	if !strings.Contains(p, "- pdf-forms: Fill in PDF forms with pdftk.") || strings.Contains(p, "Run scripts/fill.sh") || len(p) > 400 {
		t.Errorf("system prompt part (%d bytes):\n%s", len(p), p)
	}

	tool := skillTool{userDir: func() string { return user }}
	env := &Env{Workspace: ws}
	run := func(args string) (string, error) {
		r, err := tool.Run(context.Background(), json.RawMessage(args), env)
		return r.Output, err
	}
	out, err := run(`{"name":"pdf-forms"}`)
	if err != nil || !strings.Contains(out, "Run scripts/fill.sh FORM DATA.") || !strings.Contains(out, "scripts/fill.sh") {
		t.Errorf("load: %q, %v", out, err)
	}
	if out, err := run(`{"name":"pdf-forms","file":"scripts/fill.sh"}`); err != nil || !strings.HasPrefix(out, "pdftk") {
		t.Errorf("bundled file: %q, %v", out, err)
	}
	for _, bad := range []string{`{"name":"pdf-forms","file":"../../../etc/passwd"}`, `{"name":"pdf-forms","file":"/etc/passwd"}`, `{"name":"stolen"}`} {
		if out, err := run(bad); err == nil {
			t.Errorf("%s: read %q", bad, out)
		}
	}
	if _, err := run(`{"name":"nope"}`); err == nil || !strings.Contains(err.Error(), "mine, pdf-forms, review") {
		t.Errorf("unknown skill: %v", err)
	}
	act, err := tool.Describe(context.Background(), json.RawMessage(`{"name":"mine"}`), env)
	if err != nil || !act.ReadOnly {
		t.Errorf("describe: %+v %v", act, err)
	}
}

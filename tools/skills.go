package tools

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"syscall"
)

// Agent Skills (agentskills.io): a folder with a SKILL.md (front matter
// name and description, then instructions) and any files it bundles. The
// model sees each skill's name and description in the system prompt and
// loads the rest with the skill tool when a task calls for it.

// SkillFolders are where a workspace keeps skills: ours, then the peers'.
var SkillFolders = []string{".agents/skills", ".claude/skills", ".github/skills"}

const (
	maxSkills        = 40       // listed in the system prompt
	maxSkillFile     = 64 << 10 // a SKILL.md
	maxSkillDescribe = 200      // runes of a description in the system prompt
	maxSkillBundled  = 256 << 10
)

// skillName is the spec's name: lower-case letters, digits and hyphens,
// neither first nor last. Its length (at most 64) is checked apart: a
// bounded repetition compiles to that many copies of the class, paid at
// every start of the binary.
var skillName = regexp.MustCompile(`^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$`)

// Skill is one skill found.
type Skill struct {
	Name        string
	Description string
	Dir         string // its folder, absolute
	Source      string // "workspace" or "user"
}

// UserSkillsDir is where the user's own skills live:
// <user config dir>/agent-lsp/skills ("" when there is no config dir).
func UserSkillsDir() string {
	dir, err := os.UserConfigDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "agent-lsp", "skills")
}

// FindSkills lists the skills of the workspace's roots, then the user's
// (userDir; "": none), each name once (the first found wins), sorted by
// name. A skill folder is read through its own root: a SKILL.md or a
// folder that is a symlink leading elsewhere is not followed out, a
// workspace folder leading out of the workspace or into a credential
// store is skipped. Skills that cannot be read are left out.
func FindSkills(ws *Workspace, userDir string) []Skill {
	var bases []struct{ dir, source string }
	if ws != nil {
		for _, root := range ws.Roots() {
			for _, f := range SkillFolders {
				real, err := ws.Resolve(filepath.Join(root, f))
				if err != nil || CredentialRead(real) {
					continue
				}
				bases = append(bases, struct{ dir, source string }{real, "workspace"})
			}
		}
	}
	if userDir != "" {
		bases = append(bases, struct{ dir, source string }{userDir, "user"})
	}
	seen := map[string]bool{}
	var out []Skill
	for _, b := range bases {
		for _, s := range readSkillFolder(b.dir, b.source) {
			if !seen[s.Name] {
				seen[s.Name] = true
				out = append(out, s)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// readSkillFolder reads the skills directly under base.
func readSkillFolder(base, source string) []Skill {
	root, err := os.OpenRoot(base)
	if err != nil {
		return nil
	}
	defer root.Close()
	entries, err := fsReadDir(root)
	if err != nil {
		return nil
	}
	var out []Skill
	for _, name := range entries {
		s, err := readSkill(root, name)
		if err != nil {
			continue
		}
		s.Dir, s.Source = filepath.Join(base, name), source
		out = append(out, s)
	}
	return out
}

// fsReadDir lists the names of root's top directory.
func fsReadDir(root *os.Root) ([]string, error) {
	d, err := root.Open(".")
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return d.Readdirnames(-1)
}

// skillFront is a SKILL.md's front matter (the spec's other fields, such
// as allowed-tools, grant nothing here: a skill cannot widen permissions).
type skillFront struct {
	Name        string `yaml:"name"`
	Description string `yaml:"description"`
}

// readSkill reads dir/SKILL.md under root: its name must be the folder's.
func readSkill(root *os.Root, dir string) (Skill, error) {
	_, front, err := readSkillFile(root, dir)
	if err != nil {
		return Skill{}, err
	}
	name, desc := strings.TrimSpace(front.Name), strings.TrimSpace(front.Description)
	if name != dir || len(name) > 64 || !skillName.MatchString(name) {
		return Skill{}, fmt.Errorf("skill %s: its name %q must be its folder's, in lower-case letters, digits and hyphens", dir, name)
	}
	if desc == "" {
		return Skill{}, fmt.Errorf("skill %s: no description", dir)
	}
	return Skill{Name: name, Description: desc}, nil
}

// readSkillFile reads and splits dir/SKILL.md under root.
func readSkillFile(root *os.Root, dir string) (string, skillFront, error) {
	data, err := ReadRootFile(root, filepath.Join(dir, "SKILL.md"), maxSkillFile)
	if err != nil {
		return "", skillFront{}, err
	}
	var front skillFront
	body, err := ReadFrontMatter(data, &front)
	return body, front, err
}

// ReadRootFile reads a regular file under root (nothing outside it:
// os.Root), at most limit bytes. O_NONBLOCK: a FIFO a repository put in
// the file's place must not block the open; it is then refused as no
// regular file.
func ReadRootFile(root *os.Root, name string, limit int64) ([]byte, error) {
	f, err := root.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", name)
	}
	if fi.Size() > limit {
		return nil, fmt.Errorf("%s is %d bytes; at most %d", name, fi.Size(), limit)
	}
	return io.ReadAll(io.LimitReader(f, limit+1))
}

// SkillsPrompt is the system prompt's list of skills: each name and
// description (cut), for the model to load one with the skill tool when a
// task matches. Empty without skills.
func SkillsPrompt(skills []Skill) string {
	if len(skills) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\nSkills (instructions for particular tasks; when a task matches one, load it with the skill tool first):\n")
	for i, s := range skills {
		if i == maxSkills {
			fmt.Fprintf(&b, "- … and %d more (the skill tool lists them)\n", len(skills)-maxSkills)
			break
		}
		fmt.Fprintf(&b, "- %s: %s\n", s.Name, cutRunes(oneLine(s.Description), maxSkillDescribe))
	}
	return b.String()
}

// oneLine joins a text's lines with spaces.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// cutRunes cuts s to n runes, marking the cut.
func cutRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// SkillBody is a skill's instructions: its SKILL.md after the front matter.
func SkillBody(s Skill) (string, error) {
	root, err := os.OpenRoot(s.Dir)
	if err != nil {
		return "", err
	}
	defer root.Close()
	body, _, err := readSkillFile(root, ".")
	return strings.TrimSpace(body), err
}

package agent

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/tools"
)

// maxInstructions bounds the project instruction file appended to the
// system prompt: every round resends it.
const maxInstructions = 16 << 10

// instructionFiles are looked for in the first workspace root, first found wins.
var instructionFiles = []string{"AGENTS.md", "CLAUDE.md"}

// guidance is the fixed part of the system prompt. It holds no value that
// changes between rounds or prompts (no time, no counters): the model
// service caches the request prefix, and a changing system prompt would
// defeat that cache on every call.
const guidance = `You are agent-lsp, a coding agent working in the user's editor on a software project.

How to work:
- Find files with glob and search their contents with grep instead of guessing paths.
- Read a file with read_file before you change it.
- Change existing files with edit_file (an exact, unique snippet); use write_file only for new files or full rewrites.
- Run builds, tests and other commands with run_bash; after a change, run the relevant tests when the project has them.
- Calls that do not depend on each other can go in one turn: they run in parallel.
- If a call fails or is denied, read why and adapt; do not repeat a denied action.
- Make the smallest change that does the job and follow the project's style.
- Paths are relative to the workspace root.
- Answer concisely: lead with the result, cite code as path:line, no filler. Ask when the request is ambiguous.`

// SystemPrompt builds the system prompt for a workspace: the guidance, the
// environment (workspace roots, OS, shell) and, when the first root holds
// one, the project's AGENTS.md (else CLAUDE.md). It is the same text for
// the same inputs, round after round.
func SystemPrompt(ws *tools.Workspace, goos, shell string) string {
	var b strings.Builder
	b.WriteString(guidance)
	b.WriteString("\n\nEnvironment:\n")
	var roots []string
	if ws != nil {
		roots = ws.Roots()
	}
	switch len(roots) {
	case 0:
	case 1:
		fmt.Fprintf(&b, "- Workspace: %s\n", roots[0])
	default:
		fmt.Fprintf(&b, "- Workspace: %s (default root; also %s)\n", roots[0], strings.Join(roots[1:], ", "))
	}
	fmt.Fprintf(&b, "- OS: %s\n- Shell: %s\n", goos, shell)
	if len(roots) > 0 {
		if name, text := readInstructions(ws, roots[0]); text != "" {
			fmt.Fprintf(&b, "\nProject instructions (%s):\n%s\n", name, text)
		}
	}
	b.WriteString(tools.SkillsPrompt(tools.FindSkills(ws, tools.UserSkillsDir())))
	return b.String()
}

// maxInstructionFile bounds the instruction file read before it is cut to
// maxInstructions (head and tail are kept): a larger one is not read.
const maxInstructionFile = 8 << 20

// readInstructions returns the first instruction file found in root and its
// text, cut to maxInstructions; empty when there is none or it is unreadable
// (a missing file is the common case and not worth an error). It is read
// through the workspace: an AGENTS.md that is a symlink to a file outside
// (a key, a password store) is not sent to the model, nor one that leads
// to a credential store inside it (the workspace at $HOME: AGENTS.md ->
// .ssh/id_rsa would go with every request, no tool call needed).
func readInstructions(ws *tools.Workspace, root string) (name, text string) {
	for _, name := range instructionFiles {
		if real, err := ws.Resolve(filepath.Join(root, name)); err != nil || tools.CredentialRead(real) {
			continue
		}
		data, err := ws.ReadFile(filepath.Join(root, name), maxInstructionFile)
		if err != nil {
			continue
		}
		text := strings.TrimSpace(string(data))
		if text == "" {
			continue
		}
		return name, tools.Truncate(text, maxInstructions)
	}
	return "", ""
}

// ToolSpecs describes the registry's tools to the model, in registration
// order: the request prefix stays byte-identical between rounds.
func ToolSpecs(r *tools.Registry) []provider.ToolSpec {
	if r == nil {
		return nil
	}
	ts := r.Tools()
	specs := make([]provider.ToolSpec, len(ts))
	for i, t := range ts {
		specs[i] = provider.ToolSpec{Name: t.Name(), Description: t.Description(), Schema: t.Schema()}
	}
	return specs
}

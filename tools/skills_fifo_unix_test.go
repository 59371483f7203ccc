//go:build unix

package tools

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// A repository's SKILL.md that is a FIFO (no writer) must not block the
// system prompt: the skill is left out, at once.
func TestFindSkillsDoesNotBlockOnAFIFO(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{".agents/skills/good/SKILL.md": "---\nname: good\ndescription: fine\n---\nbody\n"})
	if err := os.MkdirAll(filepath.Join(root, ".agents/skills/evil"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(root, ".agents/skills/evil/SKILL.md"), 0o644); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	ws, err := NewWorkspace(root)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	found := make(chan []Skill, 1)
	go func() { found <- FindSkills(ws, "") }() // owner: this test; a blocked open would keep it forever
	// A deadline, not a sleep: FindSkills returns at once or is blocked for good.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	select {
	case skills := <-found:
		if len(skills) != 1 || skills[0].Name != "good" {
			t.Errorf("skills %+v, want only the good one", skills)
		}
	case <-ctx.Done():
		t.Fatal("FindSkills blocked on a FIFO named SKILL.md")
	}
}

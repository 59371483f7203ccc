package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/provider/connect"
	"github.com/agent-lsp/agent-lsp/tools"
)

func TestChatControl(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("one\ntwo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ws, err := tools.NewWorkspace(root)
	if err != nil {
		t.Fatal(err)
	}
	cfg := provider.DefaultConfig("openai")
	cfg.APIKeyEnv = "none"
	p, closeModel, err := connect.New(cfg, connect.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer closeModel()
	sess := agent.NewSession(agent.Config{Provider: p, Model: cfg.Model}, "system")
	c := &chatControl{session: sess, ws: ws, docs: &tools.DiskDocuments{Workspace: ws}, cfg: cfg,
		opts: connect.Options{Getenv: func(string) string { return "" }}}
	defer c.close()

	if _, handled, _ := c.command("hello"); handled {
		t.Error("a prompt was taken for a command")
	}
	if msg, _, err := c.command("/mode plan"); err != nil || sess.Mode() != agent.ModePlan || !strings.Contains(msg, "plan") {
		t.Errorf("/mode plan = %q, %v (mode %s)", msg, err, sess.Mode())
	}
	if _, _, err := c.command("/mode yolo"); err == nil {
		t.Error("/mode yolo accepted")
	}
	if msg, _, _ := c.command("/model"); !strings.Contains(msg, "deepseek-anthropic") {
		t.Errorf("/model = %q", msg)
	}
	if msg, _, err := c.command("/model ollama"); err != nil || sess.Model().Model != "qwen3-coder" {
		t.Errorf("/model ollama = %q, %v (model %+v)", msg, err, sess.Model())
	}
	// OpenAI needs a key the environment does not have: the model stays.
	if _, _, err := c.command("/model openai"); err == nil || sess.Model().Model != "qwen3-coder" {
		t.Errorf("/model openai without a key: %v, model %s", err, sess.Model().Model)
	}
	text, notes := c.attach(context.Background(), "look at @a.txt#L2 and @gone.txt")
	if !strings.Contains(text, "two") || len(notes) != 1 || !strings.Contains(notes[0], "gone.txt") {
		t.Errorf("attach = %q, %v", text, notes)
	}
}

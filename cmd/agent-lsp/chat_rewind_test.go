package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// /rewind lists the checkpoints; /rewind 1 puts the two edited files back,
// deletes the created one and drops the prompt from the conversation, so
// the next request (which the strict fake accepts) no longer carries it.
func TestChatREPLRewind(t *testing.T) {
	root := t.TempDir()
	for name, text := range map[string]string{"a.txt": "alpha\n", "b.txt": "bravo\n"} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	srv := providertest.NewServer(t, providertest.Script{
		{ToolCalls: []providertest.Call{
			{Name: "edit_file", Arguments: `{"path":"a.txt","old_string":"alpha","new_string":"ALPHA"}`},
			{Name: "write_file", Arguments: `{"path":"b.txt","content":"bravo by the agent\n"}`}},
			Usage: provider.Usage{PromptTokens: 500, CompletionTokens: 20}},
		{ToolCalls: []providertest.Call{{Name: "write_file", Arguments: `{"path":"c.txt","content":"new\n"}`}},
			Usage: provider.Usage{PromptTokens: 600, CompletionTokens: 10}},
		{Text: "changed three files", Usage: provider.Usage{PromptTokens: 700, CompletionTokens: 5}},
		{Text: "a fresh answer", Usage: provider.Usage{PromptTokens: 400, CompletionTokens: 5}},
	})
	code, out, errOut := runChatCmd(t, "change the files\n/rewind\n/rewind 2\n/rewind 1\nstart over\n",
		"--base-url", srv.OpenAIBaseURL(), "--api-key-env", "none", "--dir", root, "--yes", "--state-dir", t.TempDir())
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	for _, want := range []string{
		`1. `, `"change the files"  (a.txt, b.txt, c.txt)`,
		"restored a.txt", "restored b.txt", "deleted c.txt", "7 message(s) dropped from the conversation.",
		"a fresh answer",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(out+errOut, "checkpoint number from 1 to 1") {
		t.Errorf("/rewind 2 with one checkpoint was not refused:\n%s\n%s", out, errOut)
	}
	for name, want := range map[string]string{"a.txt": "alpha\n", "b.txt": "bravo\n"} {
		if got, err := os.ReadFile(filepath.Join(root, name)); err != nil || string(got) != want {
			t.Errorf("%s = %q (%v), want %q", name, got, err, want)
		}
	}
	if _, err := os.Stat(filepath.Join(root, "c.txt")); err == nil {
		t.Error("c.txt, created by the agent, survived /rewind")
	}
	reqs := srv.Requests()
	if len(reqs) != 4 {
		t.Fatalf("%d requests, want 4", len(reqs))
	}
	last := reqs[3]
	if last.Rejected != "" || strings.Contains(string(last.Body), "change the files") || !strings.Contains(string(last.Body), "start over") {
		t.Errorf("the request after /rewind (rejected %q): %s", last.Rejected, last.Body)
	}
}

package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

const testKeyEnv = "AGENT_LSP_TEST_KEY"

// copyTree copies the fixture at src into a fresh temporary directory.
func copyTree(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

func baseURL(srv *providertest.Server, dialect string) string {
	if dialect == "anthropic" {
		return srv.AnthropicBaseURL()
	}
	return srv.OpenAIBaseURL()
}

// runChatCmd runs `agent-lsp chat` in-process with stdin as the approvals.
func runChatCmd(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	if os.Getenv("XDG_STATE_HOME") == "" || !strings.HasPrefix(os.Getenv("XDG_STATE_HOME"), os.TempDir()) {
		t.Setenv("XDG_STATE_HOME", t.TempDir()) // sessions of tests never land in the real state dir
	}
	var out, errOut bytes.Buffer
	code = run(append([]string{"chat"}, args...), strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

// toolResultTexts extracts the tool results of a request body, whatever
// the dialect, in order.
func toolResultTexts(t *testing.T, r providertest.Received) []string {
	t.Helper()
	var body struct {
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := r.Decode(&body); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range body.Messages {
		switch {
		case m.Role == "tool":
			var s string
			_ = json.Unmarshal(m.Content, &s)
			out = append(out, s)
		case m.Role == "user":
			var blocks []struct {
				Type    string `json:"type"`
				Content string `json:"content"`
			}
			if json.Unmarshal(m.Content, &blocks) == nil {
				for _, b := range blocks {
					if b.Type == "tool_result" {
						out = append(out, b.Content)
					}
				}
			}
		}
	}
	return out
}

// The edit scenario of the agent-core issue, through the real binary's
// chat command and both dialects: an ambiguous edit fails with the match
// count, the retry with a unique old_string is approved ("y") and lands
// once, a write is denied ("n") and leaves the disk untouched, and the
// model is told each time.
func TestChatOneShotEditScenario(t *testing.T) {
	for _, dialect := range []string{"openai", "anthropic"} {
		t.Run(dialect, func(t *testing.T) {
			root := copyTree(t, "../../testdata/java-project")
			calc := filepath.Join(root, "src/main/java/demo/Calculator.java")
			before, err := os.ReadFile(calc)
			if err != nil {
				t.Fatal(err)
			}
			srv := providertest.NewServer(t, providertest.Script{
				{Reasoning: "Make add overflow-safe.", Text: "I'll edit add.", ToolCalls: []providertest.Call{{
					Name:      "edit_file",
					Arguments: `{"path":"src/main/java/demo/Calculator.java","old_string":"return","new_string":"return /*checked*/"}`,
				}}, Usage: provider.Usage{PromptTokens: 1600, CompletionTokens: 40, CachedTokens: 1408}},
				{Reasoning: "Ambiguous; use the whole line.", ToolCalls: []providertest.Call{{
					Name:      "edit_file",
					Arguments: `{"path":"src/main/java/demo/Calculator.java","old_string":"return a + b;","new_string":"return Math.addExact(a, b);"}`,
				}}, Usage: provider.Usage{PromptTokens: 1700, CompletionTokens: 30, CachedTokens: 1536}},
				{ToolCalls: []providertest.Call{{
					Name:      "write_file",
					Arguments: `{"path":"NOTES.md","content":"changed add\n"}`,
				}}, Usage: provider.Usage{PromptTokens: 1800, CompletionTokens: 20, CachedTokens: 1664}},
				{Text: "add now throws on overflow.", Usage: provider.Usage{PromptTokens: 1900, CompletionTokens: 10, CachedTokens: 1792}},
			}, providertest.WithAPIKey("k-test"))
			t.Setenv(testKeyEnv, "k-test")

			code, stdout, stderr := runChatCmd(t, "y\nn\n",
				"--provider", dialect, "--base-url", baseURL(srv, dialect), "--api-key-env", testKeyEnv,
				"--dir", root, "-p", "Make Calculator.add overflow-safe")
			if code != 0 {
				t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
			}
			if !strings.Contains(stdout, "add now throws on overflow.") {
				t.Errorf("answer missing from stdout:\n%s", stdout)
			}
			for _, r := range srv.Requests() {
				if r.Rejected != "" {
					t.Errorf("fake rejected a request: %s", r.Rejected)
				}
			}
			reqs := srv.Requests()
			if len(reqs) != 4 {
				t.Fatalf("requests = %d, want 4", len(reqs))
			}
			results := toolResultTexts(t, reqs[3])
			if len(results) != 3 {
				t.Fatalf("tool results in the last request = %d, want 3: %q", len(results), results)
			}
			if !strings.Contains(results[0], "2 matches") {
				t.Errorf("ambiguous edit result does not give the match count: %q", results[0])
			}
			if !strings.Contains(results[2], "denied by the user") {
				t.Errorf("denied write result = %q, want it to say denied by the user", results[2])
			}
			after, err := os.ReadFile(calc)
			if err != nil {
				t.Fatal(err)
			}
			want := strings.Replace(string(before), "return a + b;", "return Math.addExact(a, b);", 1)
			if string(after) != want {
				t.Errorf("Calculator.java after the prompt:\n%s\nwant:\n%s", after, want)
			}
			if _, err := os.Stat(filepath.Join(root, "NOTES.md")); !os.IsNotExist(err) {
				t.Errorf("denied write_file created NOTES.md (stat err %v)", err)
			}
			if strings.Count(stderr, "[tokens: ") != 1 || !strings.Contains(stderr, " cached), ") || !strings.Contains(stderr, "· cost $") || strings.Contains(stderr, "[round end") {
				t.Errorf("want one usage line at the prompt's end, no round lines:\n%s", stderr)
			}
			// The edit reads like the diff does: the file and its size, no
			// escaped argument JSON.
			if !strings.Contains(stderr, "⚙ edit_file src/main/java/demo/Calculator.java (-1 line +1 line)\n") || strings.Contains(stderr, `"old_string"`) {
				t.Errorf("tool call line missing or raw JSON from stderr:\n%s", stderr)
			}
		})
	}
}

func TestChatMissingKeyNamesTheVariable(t *testing.T) {
	t.Setenv("AGENT_LSP_NO_SUCH_KEY", "")
	code, _, stderr := runChatCmd(t, "", "--api-key-env", "AGENT_LSP_NO_SUCH_KEY", "-p", "hi")
	if code == 0 || !strings.Contains(stderr, "AGENT_LSP_NO_SUCH_KEY") {
		t.Fatalf("exit %d, stderr %q: want a failure naming the variable", code, stderr)
	}
}

func TestChatModelFailureExitsNonZero(t *testing.T) {
	srv := providertest.NewServer(t, providertest.Script{
		{Fault: &providertest.Fault{Status: 400, Body: `{"error":{"message":"bad model"}}`}},
	})
	code, _, stderr := runChatCmd(t, "", "--base-url", srv.OpenAIBaseURL(), "--api-key-env", "none",
		"--dir", t.TempDir(), "-p", "hi")
	if code == 0 || !strings.Contains(stderr, "400") {
		t.Fatalf("exit %d, stderr %q: want a failure with the status", code, stderr)
	}
}

func TestVersionAndUnknownCommand(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"version"}, strings.NewReader(""), &out, &errOut); code != 0 || !strings.HasPrefix(out.String(), "agent-lsp ") {
		t.Fatalf("version: exit %d, %q", code, out.String())
	}
	out.Reset()
	if code := run([]string{"frobnicate"}, strings.NewReader(""), &out, &errOut); code != 2 || out.Len() != 0 {
		t.Fatalf("unknown command: exit %d, stdout %q", code, out.String())
	}
}

// A session stored by one chat run is resumed by the next with --continue
// (and --resume ID): the model sees the earlier exchange.
func TestChatContinueResumesStoredSession(t *testing.T) {
	state := t.TempDir()
	srv := providertest.NewServer(t, providertest.Script{
		{Text: "Noted: the codeword is tulip.", Usage: provider.Usage{PromptTokens: 900, CompletionTokens: 8}},
		{Text: "The codeword is tulip.", Usage: provider.Usage{PromptTokens: 950, CompletionTokens: 6, CachedTokens: 896}},
	})
	root := t.TempDir()
	common := []string{"--base-url", srv.OpenAIBaseURL(), "--api-key-env", "none", "--dir", root, "--state-dir", state}
	if code, out, errOut := runChatCmd(t, "", append(common, "-p", "Remember the codeword tulip.")...); code != 0 {
		t.Fatalf("first run: exit %d\n%s\n%s", code, out, errOut)
	}
	code, out, errOut := runChatCmd(t, "", append(common, "--continue", "-p", "What is the codeword?")...)
	if code != 0 || !strings.Contains(out, "tulip") {
		t.Fatalf("continued run: exit %d\n%s\n%s", code, out, errOut)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 || !bytes.Contains(reqs[1].Body, []byte("Remember the codeword tulip.")) {
		t.Fatalf("the resumed request does not carry the earlier prompt: %s", reqs[len(reqs)-1].Body)
	}
	code, _, errOut = runChatCmd(t, "", append(common, "--resume", "no-such-session", "-p", "hi")...)
	if code == 0 || !strings.Contains(errOut, "no-such-session") {
		t.Fatalf("resume of a missing session: exit %d, %q", code, errOut)
	}
}

// The REPL reads prompts line by line from a non-terminal stdin, runs
// /compact, and ends at end of input.
func TestChatREPLCompactCommand(t *testing.T) {
	srv := providertest.NewServer(t, providertest.Script{
		{Text: "first answer", Usage: provider.Usage{PromptTokens: 500, CompletionTokens: 5}},
		{Text: "second answer", Usage: provider.Usage{PromptTokens: 520, CompletionTokens: 5}},
		{Text: "The user said hello twice.", Usage: provider.Usage{PromptTokens: 300, CompletionTokens: 9}},
	})
	code, out, errOut := runChatCmd(t, "hello\n/compact\nagain\n/compact\n",
		"--base-url", srv.OpenAIBaseURL(), "--api-key-env", "none", "--dir", t.TempDir(), "--no-save", "--keep", "2")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	if !strings.Contains(out, "first answer") || !strings.Contains(out, "second answer") {
		t.Fatalf("REPL output:\n%s", out)
	}
	if !strings.Contains(out, "Nothing to compact (about ") {
		t.Fatalf("the first /compact (nothing older than --keep) said nothing:\n%s", out)
	}
	if !strings.Contains(out, "[compacted ") {
		t.Fatalf("the second /compact did not compact:\n%s", out)
	}
	if reqs := srv.Requests(); len(reqs) != 3 || bytes.Contains(reqs[2].Body, []byte(`"tools"`)) {
		t.Fatalf("want 3 requests, the summary call without tools; got %d", len(reqs))
	}
}

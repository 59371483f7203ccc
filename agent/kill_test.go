package agent_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/provider/anthropic"
	"github.com/agent-lsp/agent-lsp/provider/openai"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// The child process of TestKillMidPromptAndResume is this test binary run
// again with these variables set.
const (
	envKillHelper = "AGENT_LSP_KILL_HELPER" // the dialect
	envKillURL    = "AGENT_LSP_KILL_URL"
	envKillStore  = "AGENT_LSP_KILL_STORE"
	envKillRoot   = "AGENT_LSP_KILL_ROOT"
)

func killScript() providertest.Script {
	return providertest.Script{
		// Prompt 1: two rounds, completed.
		{Reasoning: "Read it.", ToolCalls: []providertest.Call{{ID: "call_one", Name: "read_file", Arguments: `{"path":"src/main/java/demo/Main.java"}`}},
			Usage: provider.Usage{PromptTokens: 1500, CompletionTokens: 20, CachedTokens: 1200}},
		{Text: "Main prints 5.", Usage: provider.Usage{PromptTokens: 1700, CompletionTokens: 10, CachedTokens: 1500}},
		// Prompt 2: the first round completes, the second never answers.
		{Reasoning: "Read the test.", ToolCalls: []providertest.Call{{ID: "call_two", Name: "read_file", Arguments: `{"path":"src/test/java/demo/CalculatorTest.java"}`}},
			Usage: provider.Usage{PromptTokens: 1800, CompletionTokens: 20, CachedTokens: 1700}},
		{Text: "never sent", Fault: &providertest.Fault{Stall: providertest.Forever}},
		// After the restart.
		{Text: "The test checks that add(2, 2) is 4.", Usage: provider.Usage{PromptTokens: 2100, CompletionTokens: 12, CachedTokens: 1800}},
	}
}

// TestKillMidPromptAndResume kills (SIGKILL) a process in the middle of a
// prompt and resumes its session from the store: every completed round is
// there and the next prompt is accepted by the strict fake.
func TestKillMidPromptAndResume(t *testing.T) {
	if d := os.Getenv(envKillHelper); d != "" {
		runKillHelper(t, d)
		return
	}
	for _, d := range []string{openai.Name, anthropic.Name} {
		t.Run(d, func(t *testing.T) {
			srv := providertest.NewServer(t, killScript(), providertest.WithSeed(9))
			storeDir, root := t.TempDir(), javaProject(t)
			base := srv.OpenAIBaseURL()
			if d == anthropic.Name {
				base = srv.AnthropicBaseURL()
			}
			ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestKillMidPromptAndResume$")
			cmd.Env = append(os.Environ(), envKillHelper+"="+d, envKillURL+"="+base, envKillStore+"="+storeDir, envKillRoot+"="+root)
			var output strings.Builder
			cmd.Stdout, cmd.Stderr = &output, &output
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			// The fourth request is the stalled one: the rounds before it
			// were committed before it was sent.
			if err := srv.WaitRequests(ctx, 4); err != nil {
				_ = cmd.Process.Kill()
				_ = cmd.Wait()
				t.Fatalf("the child never reached the stalled round: %v\n%s", err, output.String())
			}
			if err := cmd.Process.Kill(); err != nil { // SIGKILL: no deferred code runs
				t.Fatal(err)
			}
			_ = cmd.Wait()

			s := resumeFrom(t, srv, d, base, storeDir, root, "What does Main print?")
			h := s.History()
			if got := roleList(h); got != "system,user,assistant,tool,assistant,user,assistant,tool" {
				t.Fatalf("resumed history = %s", got)
			}
			if h[3].ToolCallID != "call_one" || h[7].ToolCallID != "call_two" || !strings.Contains(h[7].Text, "AssertionError") {
				t.Errorf("tool results = %+v / %+v", h[3], h[7])
			}
			if h[2].Reasoning != "Read it." || (d == anthropic.Name && h[2].ReasoningSignature == "") {
				t.Errorf("reasoning round-trip lost: %+v", h[2])
			}
			if tot := s.Totals(); tot.Calls != 3 || tot.Usage.PromptTokens != 1500+1700+1800 {
				t.Errorf("totals = %+v, want the three completed calls", tot)
			}

			o := s.Prompt(t.Context(), "And what does the test check?", nil)
			if o.StopReason != agent.StopEndTurn || o.Text != "The test checks that add(2, 2) is 4." {
				t.Fatalf("prompt after resume: %+v", o)
			}
			for i, rq := range srv.Requests() {
				if rq.Rejected != "" {
					t.Errorf("request %d refused (%d): %s", i, rq.Status, rq.Rejected)
				}
			}
			for _, f := range mustGlob(t, storeDir+"/*.jsonl") {
				data, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				if strings.Contains(string(data), "test-key") {
					t.Errorf("%s holds the API key", f)
				}
			}
		})
	}
}

// runKillHelper is the child: it runs prompt 1, then prompt 2 until the
// stalled round, where it waits to be killed.
func runKillHelper(t *testing.T, dialect string) {
	p, err := provider.NewHTTP(provider.HTTPOptions{Dialect: dialectOf(dialect), BaseURL: os.Getenv(envKillURL), APIKey: "test-key"})
	if err != nil {
		t.Fatal(err)
	}
	store, err := agent.NewStore(os.Getenv(envKillStore), nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg, sys := builtinConfig(t, p, os.Getenv(envKillRoot))
	cfg.Store = store
	s := agent.NewSession(cfg, sys)
	if o := s.Prompt(t.Context(), "What does Main print?", nil); o.StopReason != agent.StopEndTurn {
		t.Fatalf("prompt 1: %+v", o)
	}
	s.Prompt(t.Context(), "And the test?", nil) // blocks in round 2 until killed
	t.Fatal("the stalled round returned")
}

func dialectOf(name string) provider.Dialect {
	if name == anthropic.Name {
		return anthropic.NewDialect()
	}
	return openai.NewDialect()
}

func roleList(h []provider.Message) string {
	var parts []string
	for _, m := range h {
		parts = append(parts, string(m.Role))
	}
	return strings.Join(parts, ",")
}

func mustGlob(t *testing.T, pattern string) []string {
	t.Helper()
	files, err := filepath.Glob(pattern)
	if err != nil || len(files) == 0 {
		t.Fatalf("glob %s: %v %v", pattern, files, err)
	}
	return files
}

package agent

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// No request asks for more output than the window leaves: a 4,096-token
// llama.cpp (which refuses max_tokens past its window) talked to with the
// default max_tokens of 8,192 gets at most the window minus the prompt,
// once the window is known (the controller's discovery, UseContextWindow).
func TestMaxTokensFitTheWindow(t *testing.T) {
	const window = 4096
	srv := providertest.NewServer(t, providertest.Script{
		{ToolCalls: []providertest.Call{{Name: "read_file", Arguments: `{"path":"a.go"}`}}},
		{Text: "a small file."},
	}, providertest.WithSeed(21), providertest.WithLlamaCpp(window))
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "a.go"), []byte("package a\n\nfunc A() int { return 1 }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, _ := calibSession(t, srv, root, 0)
	s.mu.Lock()
	s.model.MaxTokens = provider.DefaultMaxTokens
	s.mu.Unlock()
	s.UseContextWindow(s.current().Model, window)
	o := s.Prompt(t.Context(), "What is in a.go?", ListenerFunc(func(Event) {}))
	if o.Err != nil || o.Text != "a small file." {
		t.Fatalf("outcome %+v", o)
	}
	for i, r := range srv.Requests() {
		var body struct {
			MaxTokens int `json:"max_tokens"`
		}
		if err := json.Unmarshal(r.Body, &body); err != nil {
			t.Fatal(err)
		}
		t.Logf("request %d: prompt %d tokens (the server's count), max_tokens %d", i+1, r.PromptTokens, body.MaxTokens)
		if r.Rejected != "" || body.MaxTokens <= 0 || r.PromptTokens+body.MaxTokens > window {
			t.Errorf("request %d: max_tokens %d with a %d-token prompt in a %d window (refused: %q)", i+1, body.MaxTokens, r.PromptTokens, window, r.Rejected)
		}
	}
}

// The compaction summary asks for no more than the window leaves either:
// a long history to summarise in a 4,096-token window leaves less than
// the summary's usual 2,048.
func TestSummaryMaxTokensFitTheWindow(t *testing.T) {
	const window = 4096
	srv := providertest.NewServer(t, providertest.Script{{Text: "a summary."}},
		providertest.WithSeed(22), providertest.WithLlamaCpp(window))
	s, _ := calibSession(t, srv, t.TempDir(), 0)
	s.mu.Lock()
	s.model.MaxTokens = provider.DefaultMaxTokens
	s.mu.Unlock()
	s.UseContextWindow(s.current().Model, window)
	var older []provider.Message
	for i := range 60 {
		older = append(older, provider.Message{Role: provider.RoleUser, Text: "please look at the helper functions in file number " + itoa(i) + " and say what they do"},
			provider.Message{Role: provider.RoleAssistant, Text: "file " + itoa(i) + " holds helpers that add, scale and format integers for the report writer"})
	}
	if _, _, err := s.summarise(t.Context(), nil, older); err != nil {
		t.Fatal(err)
	}
	r := srv.Requests()[0]
	var body struct {
		MaxTokens int `json:"max_tokens"`
	}
	if err := json.Unmarshal(r.Body, &body); err != nil {
		t.Fatal(err)
	}
	t.Logf("summary request: prompt %d tokens (the server's count), max_tokens %d", r.PromptTokens, body.MaxTokens)
	if r.PromptTokens+body.MaxTokens > window {
		t.Errorf("max_tokens %d with a %d-token prompt in a %d window", body.MaxTokens, r.PromptTokens, window)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

package mcp

import (
	"context"
	"strings"
	"testing"
	"time"
)

// A prompt of the reference server, fetched with prompts/get: arguments
// are filled in, a missing required one and an unknown prompt are errors.
func TestRealEverythingServerPrompts(t *testing.T) {
	t.Parallel()
	node, args := npmServer(t, "server-everything", "stdio")
	m, _ := newTestManager(t)
	startAndWait(t, m, ServerConfig{Name: "every", Type: TypeStdio, Command: node, Args: args})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()

	var found bool
	for _, p := range m.Prompts() {
		if p.Server == "every" && p.Name == "args-prompt" {
			found = len(p.Arguments) == 2 && p.Arguments[0].Name == "city" && p.Arguments[0].Required
		}
	}
	if !found {
		t.Fatalf("args-prompt with a required city not listed: %+v", m.Prompts())
	}
	text, err := m.GetPrompt(ctx, "every", "args-prompt", map[string]string{"city": "Paris", "state": "Texas"})
	if err != nil || text != "What's weather in Paris, Texas?" {
		t.Errorf("GetPrompt = %q, %v", text, err)
	}
	text, err = m.GetPrompt(ctx, "every", "simple-prompt", nil)
	if err != nil || !strings.Contains(text, "simple prompt") {
		t.Errorf("simple-prompt = %q, %v", text, err)
	}
	if _, err := m.GetPrompt(ctx, "every", "args-prompt", nil); err == nil || !strings.Contains(err.Error(), "city") {
		t.Errorf("missing argument: %v", err)
	}
	if _, err := m.GetPrompt(ctx, "every", "nope", nil); err == nil || !strings.Contains(err.Error(), `no prompt "nope"`) {
		t.Errorf("unknown prompt: %v", err)
	}
	if _, err := m.GetPrompt(ctx, "nobody", "x", nil); err == nil {
		t.Error("unknown server: no error")
	}
}

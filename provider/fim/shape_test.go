package fim_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"

	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/provider/fim"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// Every field a Request can carry reaches each dialect's strict fake in a
// shape it accepts (it refuses unknown fields and wrong types), and lands in
// the field the dialect reads it from.
func TestEveryFieldIsAcceptedByEachDialect(t *testing.T) {
	stops := []string{"\n\n", "func ", "type ", "var ", "const ", "import "}
	for _, d := range dialects {
		t.Run(d.name, func(t *testing.T) {
			srv := providertest.NewServer(t, providertest.Script{{FIM: &providertest.FIMTurn{Text: "1"}}})
			_, err := newClient(t, srv, d.name).Complete(t.Context(), fim.Request{
				Prefix: "x := ", Suffix: "\n", Path: "cmd/main.go", Language: "go",
				Extra:     []fim.File{{Path: "util.go", Text: "package main"}},
				MaxTokens: 10000, Stop: stops, Temperature: 0,
			}, nil)
			if err != nil {
				t.Fatalf("Complete: %v (refused: %q)", err, srv.Requests()[0].Rejected)
			}
			r := srv.FIMRequests()[0]
			if d.name == fim.DialectLlamaCpp {
				// llama.cpp names the file itself: the path is given once.
				if r.Prefix != "x := " {
					t.Errorf("prefix sent %q, want the bare prefix (llama.cpp names the file itself)", r.Prefix)
				}
				if len(r.Extra) != 1 || r.Extra[0].Filename != "util.go" || r.Extra[0].Text != "package main" {
					t.Errorf("input_extra %+v", r.Extra)
				}
			} else if !strings.HasPrefix(r.Prefix, "// Path: ") || !strings.HasSuffix(r.Prefix, "// Path: cmd/main.go\nx := ") {
				t.Errorf("prefix sent %q, want the path header before the prefix", r.Prefix)
			} else if !strings.Contains(r.Prefix, "// Path: util.go\npackage main\n") {
				t.Errorf("the other file is not in the prompt: %q", r.Prefix)
			}
			wantMax, wantStops := 10000, len(stops)
			switch d.name {
			case fim.DialectDeepSeek:
				wantMax = 4096
			case fim.DialectOpenAI:
				wantStops = 4
			}
			if r.MaxTokens != wantMax || len(r.Stop) != wantStops {
				t.Errorf("max tokens %d, %d stops; want %d, %d", r.MaxTokens, len(r.Stop), wantMax, wantStops)
			}
			if r.Temperature == nil || *r.Temperature != 0 {
				t.Errorf("temperature 0 not sent: %v", r.Temperature)
			}
		})
	}
}

// The key goes in the Authorization header and nowhere else: not in logs,
// not in recordings, not in errors.
func TestTheKeyIsNeverLogged(t *testing.T) {
	const key = "sk-secret-fim-key"
	srv := providertest.NewServer(t, providertest.Script{
		{Fault: &providertest.Fault{Status: 503}},
		{FIM: &providertest.FIMTurn{Text: "ok"}},
	}, providertest.WithAPIKey(key))
	core, logs := observer.New(zap.DebugLevel)
	var rec bytes.Buffer
	c := newClient(t, srv, fim.DialectDeepSeek, func(cfg *fim.Config) {
		cfg.APIKeyEnv = "FIM_KEY"
		cfg.Getenv = func(string) string { return key }
		cfg.Logger = zap.New(core)
		cfg.Recorder = provider.NewRecorder(&rec)
	})
	if _, err := c.Complete(t.Context(), fim.Request{Prefix: "p"}, nil); err != nil {
		t.Fatalf("Complete: %v", err)
	}
	if got := srv.Requests()[1].Header.Get("Authorization"); got != "Bearer "+key {
		t.Errorf("Authorization %q", got)
	}
	if logs.Len() == 0 {
		t.Fatal("no log entry at debug level: the check below would prove nothing")
	}
	for _, e := range logs.All() {
		line := e.Message
		for k, v := range e.ContextMap() {
			line += fmt.Sprintf(" %s=%v", k, v)
		}
		if strings.Contains(line, key) {
			t.Errorf("log entry quotes the key: %s", line)
		}
	}
	if rec.Len() == 0 || strings.Contains(rec.String(), key) {
		t.Errorf("recording (%d bytes) quotes the key or is empty", rec.Len())
	}
}

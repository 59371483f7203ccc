package control_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/agent/control"
	"github.com/agent-lsp/agent-lsp/permission"
	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
	"github.com/agent-lsp/agent-lsp/tools"
)

// An @-mentioned file larger than a 4,096-token llama.cpp's window is cut
// like a read_file result, says so (in the text the model reads and in the
// mention's report), and the prompt is answered: the server refuses
// nothing, neither the prompt's length nor its max_tokens.
func TestOversizedMentionIsCutAndAnswered(t *testing.T) {
	srv := providertest.NewServer(t, providertest.Script{{Text: "a file of helpers."}},
		providertest.WithSeed(31), providertest.WithLlamaCpp(4096))
	root := t.TempDir()
	var big strings.Builder
	for i := 0; big.Len() < 40<<10; i++ {
		fmt.Fprintf(&big, "func helper%04d(x int) int { return x*%d + %d }\n", i, i, i*7)
	}
	if err := os.WriteFile(filepath.Join(root, "big.go"), []byte(big.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := localConfig(srv, providertest.LlamaCppModel())
	client, err := newClient(srv, cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctl := control.New(control.Options{Model: cfg, Provider: client, Windows: &provider.WindowCache{Client: srv.Client()}})
	t.Cleanup(func() { _ = ctl.Close() })
	ws, err := tools.NewWorkspace(root)
	if err != nil {
		t.Fatal(err)
	}
	s, err := ctl.NewSession(control.Binding{Workspace: ws, Approver: permission.AutoApprover{}}, "")
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Prompt(t.Context(), control.PromptInput{Text: "What is in @big.go?"}, agent.ListenerFunc(func(agent.Event) {}))
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome.Err != nil || res.Outcome.Text != "a file of helpers." {
		t.Fatalf("outcome %+v", res.Outcome)
	}
	if len(res.Mentions) != 1 || res.Mentions[0].Status != agent.MentionAttached || !strings.Contains(res.Mentions[0].Message, "cut to fit") {
		t.Errorf("mentions %+v, want big.go attached and said to be cut", res.Mentions)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 || reqs[0].Rejected != "" {
		t.Fatalf("requests %d, refused %q", len(reqs), reqs[0].Rejected)
	}
	if !strings.Contains(string(reqs[0].Body), "cut from the middle of") {
		t.Error("the model is not told the file was cut")
	}
	t.Logf("sent %d tokens by the server's count (window 4096), %d bytes of a %d-byte file", reqs[0].PromptTokens, len(reqs[0].Body), big.Len())
}

package main

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// `@shot.png` in the chat attaches the image itself, in both dialects;
// to a model without vision it is reported, not sent.
func TestChatImageMention(t *testing.T) {
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, 8, 6))); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ dialect, model string }{{"openai", "gpt-4.1"}, {"anthropic", "claude-sonnet-4-5"}, {"openai", "deepseek-flash"}} {
		t.Run(c.dialect+"/"+c.model, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "shot.png"), b.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			srv := providertest.NewServer(t, providertest.Script{{Text: "A grey box."}}, providertest.WithAPIKey("k-test"))
			t.Setenv(testKeyEnv, "k-test")
			code, stdout, stderr := runChatCmd(t, "", "--provider", c.dialect, "--model", c.model, "--base-url", baseURL(srv, c.dialect),
				"--api-key-env", testKeyEnv, "--dir", dir, "--no-save", "-p", "What is in @shot.png?")
			if code != 0 {
				t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
			}
			reqs := srv.Requests()
			if len(reqs) != 1 {
				t.Fatalf("%d requests", len(reqs))
			}
			n := providertest.ImagesReceived(reqs[0].Body)
			switch {
			case c.model == "deepseek-flash" && (n != 0 || !strings.Contains(stderr, "does not take images")):
				t.Errorf("a model without vision: %d images sent; stderr:\n%s", n, stderr)
			case c.model != "deepseek-flash" && n != 1:
				t.Errorf("%d images reached the model, want 1; stderr:\n%s", n, stderr)
			}
		})
	}
}

package acp_test

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/png"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agent-lsp/agent-lsp/provider/anthropic"
	"github.com/agent-lsp/agent-lsp/provider/openai"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

func pngBase64(t *testing.T) string {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, 8, 6))); err != nil {
		t.Fatal(err)
	}
	return base64.StdEncoding.EncodeToString(b.Bytes())
}

// An image block reaches the model as the dialect's image; to a model
// without vision it is refused before any request.
func TestPromptImage(t *testing.T) {
	data := pngBase64(t)
	for _, c := range []struct{ dialect, model string }{{openai.Name, "gpt-4.1"}, {anthropic.Name, "claude-sonnet-4-5"}, {openai.Name, "deepseek-flash"}} {
		t.Run(c.dialect+"/"+c.model, func(t *testing.T) {
			h := startAgent(t, harnessOptions{dialect: c.dialect, modelName: c.model, script: providertest.Script{{Text: "A grey box."}}})
			if !h.initialize(true).AgentCapabilities.PromptCapabilities.Image {
				t.Error("promptCapabilities.image is false")
			}
			ns, err := h.conn.NewSession(h.ctx(), sdk.NewSessionRequest{Cwd: t.TempDir(), McpServers: []sdk.McpServer{}})
			if err != nil {
				t.Fatal(err)
			}
			_, err = h.conn.Prompt(h.ctx(), sdk.PromptRequest{SessionId: ns.SessionId, Prompt: []sdk.ContentBlock{
				sdk.TextBlock("What is this?"), sdk.ImageBlock(data, "image/png")}})
			reqs := h.model.Requests()
			if c.model == "deepseek-flash" {
				if err == nil || !strings.Contains(err.Error(), "does not take images") || len(reqs) != 0 {
					t.Errorf("a model without vision: %v, %d requests", err, len(reqs))
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(reqs) != 1 || providertest.ImagesReceived(reqs[0].Body) != 1 {
				t.Errorf("the image did not reach the model")
			}
		})
	}
}

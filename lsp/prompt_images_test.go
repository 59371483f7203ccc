package lsp_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/provider/anthropic"
	"github.com/agent-lsp/agent-lsp/provider/openai"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

func pngData(t *testing.T) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, 8, 6))); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// agent/prompt's images reach the model as the dialect's image (the fake
// checks them as the real services do), by data or by a workspace file's
// URI; a model without vision is refused before any request.
func TestPromptImagesReachTheModel(t *testing.T) {
	data := pngData(t)
	for _, c := range []struct{ dialect, model string }{{openai.Name, "gpt-4.1"}, {anthropic.Name, "claude-sonnet-4-5"}} {
		t.Run(c.dialect, func(t *testing.T) {
			s := start(t, providertest.Script{{Text: "A grey box."}, {Text: "The same box."}},
				setupOptions{dialect: c.dialect, caps: fullCaps, files: map[string]string{"shot.png": string(data)}})
			s.initialize(map[string]any{"model": c.model})
			r := s.prompt(map[string]any{"prompt": "What is this?", "images": []map[string]any{
				{"mimeType": "image/png", "data": base64.StdEncoding.EncodeToString(data)}}})
			if r.StopReason != "end_turn" {
				t.Fatalf("prompt: %+v", r)
			}
			r = s.prompt(map[string]any{"sessionId": r.SessionID, "prompt": "And this file?", "images": []map[string]any{
				{"uri": "file://" + filepath.Join(s.root, "shot.png")}}})
			if r.StopReason != "end_turn" {
				t.Fatalf("prompt by uri: %+v", r)
			}
			reqs := s.model.Requests()
			if n := providertest.ImagesReceived(reqs[1].Body); n != 2 {
				t.Errorf("the second request carries %d images, want both prompts' 2", n)
			}
		})
	}
}

func TestPromptImagesRefused(t *testing.T) {
	data := pngData(t)
	s := start(t, providertest.Script{{Text: "unused"}}, setupOptions{caps: fullCaps})
	s.initialize(nil) // deepseek-flash: text only
	outside := filepath.Join(t.TempDir(), "outside.png")
	if err := os.WriteFile(outside, data, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		images []map[string]any
		want   string
	}{
		{"no vision", []map[string]any{{"data": base64.StdEncoding.EncodeToString(data)}}, "the model deepseek-flash does not take images"},
		{"not base64", []map[string]any{{"data": "%%%"}}, "images[0].data: not base64"},
		{"not an image", []map[string]any{{"data": base64.StdEncoding.EncodeToString([]byte("PASSWORD=hunter2\n"))}}, "png, jpeg, gif and webp are accepted"},
		{"outside the workspace", []map[string]any{{"uri": "file://" + outside}}, "images[0].uri"},
	} {
		var res map[string]any
		err := s.ed.Call(context.Background(), "agent/prompt", map[string]any{"prompt": "look", "images": c.images}, &res)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error saying %q", c.name, err, c.want)
		}
	}
	if n := len(s.model.Requests()); n != 0 {
		t.Errorf("%d model requests; refusals must come before any", n)
	}
}

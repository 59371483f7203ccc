package connect_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"image"
	"image/color"
	"image/png"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// pngBytes is a small real PNG.
func pngBytes(t *testing.T) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 3, 2))
	img.Set(1, 1, color.RGBA{R: 255, A: 255})
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// streamErr runs req and returns the stream's failure, if any.
func streamErr(p provider.Provider, req provider.Request) error {
	for e := range p.Stream(context.Background(), req) {
		if e.Type == provider.EventFailure {
			return e.Err
		}
	}
	return nil
}

// An image in a user message reaches the strict fake as each dialect's
// image (a data URL part; a base64 image block), which it checks as the
// real services do; a mislabelled image and a model without vision are
// refused there.
func TestImagesInBothDialects(t *testing.T) {
	data := pngBytes(t)
	img, err := provider.NewImage("shot.png", "", data)
	if err != nil {
		t.Fatal(err)
	}
	if img.MediaType != "image/png" || img.Width != 3 || img.Height != 2 {
		t.Fatalf("image %+v", img)
	}
	msgs := func(i provider.Image) []provider.Message {
		return []provider.Message{{Role: provider.RoleSystem, Text: "You help."},
			{Role: provider.RoleUser, Text: "What is in this <picture>?", Images: []provider.Image{i}}}
	}
	for _, dialect := range []string{"openai", "anthropic"} {
		t.Run(dialect, func(t *testing.T) {
			srv := providertest.NewServer(t, providertest.Script{{Text: "A red dot."}, {Text: "unused"}})
			p := newProvider(t, dialect, srv)
			if err := streamErr(p, provider.Request{Model: "m", Messages: msgs(img), MaxTokens: 100}); err != nil {
				t.Fatalf("a real PNG: %v", err)
			}
			body := string(srv.Requests()[0].Body)
			if providertest.ImagesReceived([]byte(body)) != 1 || !strings.Contains(body, base64.StdEncoding.EncodeToString(data)) {
				t.Errorf("the image did not reach the model:\n%s", body)
			}
			if !strings.Contains(body, "<picture>") {
				t.Errorf("the text lost its '<' and '>' to HTML escaping:\n%s", body)
			}
			wrong := img
			wrong.MediaType = "image/jpeg" // PNG bytes labelled JPEG
			if err := streamErr(p, provider.Request{Model: "m", Messages: msgs(wrong), MaxTokens: 100}); err == nil {
				t.Error("a PNG sent as image/jpeg was accepted")
			}

			blind := providertest.NewServer(t, providertest.Script{{Text: "unused"}}, providertest.WithoutVision())
			err := streamErr(newProvider(t, dialect, blind), provider.Request{Model: "m", Messages: msgs(img), MaxTokens: 100})
			if err == nil || !(strings.Contains(err.Error(), "image") || strings.Contains(err.Error(), "image_url")) {
				t.Errorf("a model without vision: %v", err)
			}
		})
	}
}

package agent

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/provider"
)

func testImage(t *testing.T, w, h int) provider.Image {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, w, h))); err != nil {
		t.Fatal(err)
	}
	img, err := provider.NewImage("shot.png", "", b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// An image is stored once by its hash, never in the session file; a
// resumed session sends it again; the same image in a later prompt is
// not stored twice.
func TestImagesStoredOnceByHash(t *testing.T) {
	store, err := NewStore(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	model := newFakeModel(
		answer(text("a grey box"), done(provider.StopEndTurn, 100, 4)),
		answer(text("still grey"), done(provider.StopEndTurn, 120, 4)),
		answer(text("yes"), done(provider.StopEndTurn, 130, 4)),
	)
	cfg := Config{Provider: model, Model: "m", Env: testEnv(t), Store: store}
	s := NewSession(cfg, sys)
	img := testImage(t, 40, 30)
	for _, p := range []string{"what is this?", "and this?"} {
		if o := s.PromptImages(t.Context(), p, []provider.Image{img}, nil); o.StopReason != StopEndTurn {
			t.Fatalf("%s: %+v", p, o)
		}
	}
	file, err := os.ReadFile(filepath.Join(store.dir, s.ID()+".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	b64 := base64.StdEncoding.EncodeToString(img.Data)
	if strings.Contains(string(file), b64[:40]) || strings.Count(string(file), img.SHA256) != 2 {
		t.Errorf("the session file holds the image's bytes, or not its hash twice:\n%s", file)
	}
	blobs, _ := os.ReadDir(store.contentDir(s.ID()))
	if len(blobs) != 1 {
		t.Errorf("%d blobs in the content store, want the image once", len(blobs))
	}

	r, err := ResumeSession(Config{Provider: model, Model: "m", Env: testEnv(t), Store: store}, s.ID())
	if err != nil {
		t.Fatal(err)
	}
	if o := r.Prompt(t.Context(), "sure?", nil); o.StopReason != StopEndTurn {
		t.Fatalf("resumed: %+v", o)
	}
	reqs := model.Requests()
	last := reqs[len(reqs)-1]
	n := 0
	for _, m := range last.Messages {
		for _, i := range m.Images {
			if !bytes.Equal(i.Data, img.Data) {
				t.Error("a resumed image lost its bytes")
			}
			n++
		}
	}
	if n != 2 {
		t.Errorf("the resumed session sent %d images, want 2", n)
	}
}

// Compaction keeps a text stand-in of an old image, and the estimate
// counts what an image costs.
func TestCompactionKeepsAnImageStandIn(t *testing.T) {
	img := testImage(t, 1500, 1000)
	m := provider.Message{Role: provider.RoleUser, Text: "look", Images: []provider.Image{img}}
	if got := estimateMessage(m) - estimateMessage(provider.Message{Role: provider.RoleUser, Text: "look"}); got != 2000 {
		t.Errorf("the image is estimated at %d tokens, want 1500×1000/750 = 2000", got)
	}
	out, n := elide([]provider.Message{m})
	if n != 1 || len(out[0].Images) != 0 || out[0].Text != "look\n[image shot.png, image/png, 1500×1000]" {
		t.Errorf("elided: %d, %+v", n, out[0])
	}
	if got := transcript([]provider.Message{m}); !strings.Contains(got, "[user]\nlook\n[image shot.png, image/png, 1500×1000]") {
		t.Errorf("summary transcript:\n%s", got)
	}
}

package provider

import (
	"bytes"
	"image"
	"image/png"
	"strings"
	"testing"
)

func TestNewImage(t *testing.T) {
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, 3136, 1000))); err != nil {
		t.Fatal(err)
	}
	img, err := NewImage("big.png", "image/png", b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	// The long side scaled to 1568: 1568×500 / 750.
	if got := img.Tokens(); got != 1045 {
		t.Errorf("tokens %d, want 1045", got)
	}
	if got := img.StandIn(); got != "[image big.png, image/png, 3136×1000]" {
		t.Errorf("stand-in %q", got)
	}
	if !strings.HasPrefix(img.DataURL(), "data:image/png;base64,iVBORw0KGgo") || len(img.SHA256) != 64 {
		t.Errorf("data URL %.40s, hash %q", img.DataURL(), img.SHA256)
	}
	for name, c := range map[string]struct {
		mediaType string
		data      []byte
		want      string
	}{
		"mislabelled":  {"image/jpeg", b.Bytes(), "says image/jpeg but its bytes are image/png"},
		"not an image": {"", []byte("%PDF-1.7\n"), "application/pdf; png, jpeg, gif and webp are accepted"},
		"svg":          {"image/svg+xml", []byte("<svg/>"), "image/svg+xml; png, jpeg"},
		"empty":        {"", nil, "is empty"},
		"too big":      {"", make([]byte, MaxImageBytes+1), "at most 5 MiB"},
	} {
		if _, err := NewImage(name, c.mediaType, c.data); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", name, err, c.want)
		}
	}
}

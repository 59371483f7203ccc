package provider

import (
	"bytes"
	"image"
	_ "image/gif"  // registers the decoder DecodeConfig reads a GIF's size with
	_ "image/jpeg" // JPEG, likewise
	_ "image/png"  // PNG, likewise

	_ "golang.org/x/image/webp" // WebP, likewise
)

// imageSize reads an image's size from its header (0, 0 when it cannot).
func imageSize(data []byte) (int, int) {
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return 0, 0
	}
	return cfg.Width, cfg.Height
}

package acp

import (
	"encoding/base64"
	"fmt"
	"path"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agent-lsp/agent-lsp/provider"
)

// imageOf is a prompt's image block as the agent's image: its base64 data
// decoded and checked (type, size, bytes). The uri, when the client gives
// one, only names it; nothing is read from it.
func imageOf(b *sdk.ContentBlockImage, n int) (provider.Image, error) {
	data, err := base64.StdEncoding.DecodeString(b.Data)
	if err != nil {
		return provider.Image{}, fmt.Errorf("image data is not base64: %w", err)
	}
	name := fmt.Sprintf("image %d", n)
	if b.Uri != nil && *b.Uri != "" {
		name = path.Base(*b.Uri)
	}
	return provider.NewImage(name, b.MimeType, data)
}

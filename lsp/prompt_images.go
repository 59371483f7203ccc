package lsp

import (
	"encoding/base64"
	"fmt"
	"path/filepath"

	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/tools"
)

// promptImage is one of agent/prompt's images: its bytes in base64, or a
// file:// URI of an image inside the workspace.
type promptImage struct {
	MimeType string `json:"mimeType"`
	Data     string `json:"data"`
	URI      string `json:"uri"`
}

// promptImages reads a prompt's images, each checked (type, size, bytes);
// a URI is read through the workspace sandbox, so only a file inside the
// workspace, and never a protected one's secret (it must be an image).
func promptImages(ws *tools.Workspace, in []promptImage) ([]provider.Image, error) {
	out := make([]provider.Image, 0, len(in))
	for i, p := range in {
		var (
			data []byte
			name = fmt.Sprintf("image %d", i+1)
			err  error
		)
		switch {
		case p.Data != "" && p.URI != "":
			return nil, fmt.Errorf("images[%d]: data or uri, not both", i)
		case p.Data != "":
			if data, err = base64.StdEncoding.DecodeString(p.Data); err != nil {
				return nil, fmt.Errorf("images[%d].data: not base64: %v", i, err)
			}
		case p.URI != "":
			path, err := uriToPath(p.URI)
			if err != nil {
				return nil, fmt.Errorf("images[%d].uri: %v", i, err)
			}
			if data, err = ws.ReadFile(path, provider.MaxImageBytes); err != nil {
				return nil, fmt.Errorf("images[%d].uri: %v", i, err)
			}
			name = filepath.Base(path)
		default:
			return nil, fmt.Errorf("images[%d]: needs data or uri", i)
		}
		img, err := provider.NewImage(name, p.MimeType, data)
		if err != nil {
			return nil, fmt.Errorf("images[%d]: %v", i, err)
		}
		out = append(out, img)
	}
	return out, nil
}

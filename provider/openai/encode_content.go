package openai

import "github.com/agent-lsp/agent-lsp/provider"

// wirePart is one part of a user message sent as an array: its text, or
// an image.
type wirePart struct {
	Type     string        `json:"type"` // "text" or "image_url"
	Text     string        `json:"text,omitempty"`
	ImageURL *wireImageURL `json:"image_url,omitempty"`
}

type wireImageURL struct {
	URL string `json:"url"` // a data: URL
}

// imageParts is a user message with images: its text, then each image as
// a data URL (the only way to send an image without hosting it).
func imageParts(m *provider.Message) []wirePart {
	parts := make([]wirePart, 0, len(m.Images)+1)
	if m.Text != "" {
		parts = append(parts, wirePart{Type: "text", Text: m.Text})
	}
	for _, img := range m.Images {
		parts = append(parts, wirePart{Type: "image_url", ImageURL: &wireImageURL{URL: img.DataURL()}})
	}
	return parts
}

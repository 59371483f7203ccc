package agent

import (
	"context"
	"fmt"
	"strings"

	"go.uber.org/zap"

	"github.com/agent-lsp/agent-lsp/agent/contentstore"
	"github.com/agent-lsp/agent-lsp/provider"
)

// PromptImages runs one prompt whose user message carries images with its
// text. The images are kept in the session's content store by hash, once
// however often they are sent, and the session file names them by hash.
func (s *Session) PromptImages(ctx context.Context, text string, images []provider.Image, l Listener) Outcome {
	if len(images) > 0 {
		s.keepImages(images)
	}
	return s.prompt(ctx, text, images, l)
}

// keepImages stores each image's bytes under its hash (the same image
// sent twice is stored once). A failure ends the session's persistence,
// as a failed record does.
func (s *Session) keepImages(images []provider.Image) {
	for _, img := range images {
		h, err := s.content.Put(string(img.Data))
		if err != nil {
			s.storeFailure(err)
			return
		}
		if h.String() != img.SHA256 {
			s.cfg.Logger.Warn("image hash differs from its content", zap.String("name", img.Name))
		}
	}
}

// imageHashes are the images the history still sends: what collecting
// the content store must keep.
func (s *Session) imageHashes() []contentstore.Hash {
	var out []contentstore.Hash
	for _, m := range s.history {
		for _, img := range m.Images {
			if h, err := contentstore.ParseHash(img.SHA256); err == nil {
				out = append(out, h)
			}
		}
	}
	return out
}

// loadImages puts each stored image's bytes back into the loaded history;
// an image the content store no longer has becomes its text stand-in, so
// the history stays one every model accepts.
func loadImages(history []provider.Message, content *contentstore.Store, log *zap.Logger) {
	for i := range history {
		m := &history[i]
		if len(m.Images) == 0 {
			continue
		}
		kept := m.Images[:0:0]
		for _, img := range m.Images {
			h, err := contentstore.ParseHash(img.SHA256)
			var data string
			if err == nil {
				data, err = content.Get(h)
			}
			if err != nil {
				log.Warn("session image not found: kept as text", zap.String("name", img.Name), zap.Error(err))
				m.Text = appendStandIn(m.Text, img, "not kept")
				continue
			}
			img.Data = []byte(data)
			kept = append(kept, img)
		}
		m.Images = kept
	}
}

// appendStandIn adds an image's stand-in to a message's text.
func appendStandIn(text string, img provider.Image, why string) string {
	s := img.StandIn()
	if why != "" {
		s = strings.TrimSuffix(s, "]") + ": " + why + "]"
	}
	if text == "" {
		return s
	}
	return text + "\n" + s
}

// elideImages returns m with its images replaced by their stand-ins, and
// whether it had any: what compaction keeps of an old image.
func elideImages(m provider.Message) (provider.Message, bool) {
	if len(m.Images) == 0 {
		return m, false
	}
	for _, img := range m.Images {
		m.Text = appendStandIn(m.Text, img, "")
	}
	m.Images = nil
	return m, true
}

// imageTokens estimates what a message's images cost in a request.
func imageTokens(m provider.Message) int {
	n := 0
	for _, img := range m.Images {
		n += img.Tokens()
	}
	return n
}

// imagesNote names a message's images for a transcript.
func imagesNote(m provider.Message) string {
	if len(m.Images) == 0 {
		return ""
	}
	var b strings.Builder
	for _, img := range m.Images {
		fmt.Fprintf(&b, "\n%s", img.StandIn())
	}
	return b.String()
}

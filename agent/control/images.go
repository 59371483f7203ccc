package control

import (
	"fmt"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/provider"
)

// checkImages refuses, before anything is sent, images the prompt cannot
// carry: with a slash command, or to a model that takes none.
func (s *Session) checkImages(in PromptInput) error {
	if len(in.Images) == 0 {
		return nil
	}
	if name, _, ok := ParseCommand(in.Text); ok && !in.Verbatim {
		return invalidf("images go with a prompt, not with the /%s command", name)
	}
	return s.visionErr(len(in.Images))
}

// visionErr is the refusal of n images to a model that takes none, nil
// when the session's model takes them.
func (s *Session) visionErr(n int) error {
	cfg := s.modelConfig()
	if provider.TakesImages(cfg) {
		return nil
	}
	what := "an image"
	if n > 1 {
		what = fmt.Sprintf("%d images", n)
	}
	return invalidf("the model %s does not take images, so %s cannot be sent: switch to a model that does (/model), or set `vision: true` on its preset if it does", cfg.Model, what)
}

// refuseImages reports a mentioned image the model cannot take as not
// attached (failed, saying why) rather than failing the prompt.
func (s *Session) refuseImages(reports []agent.MentionReport) {
	for i := range reports {
		if reports[i].Image == nil {
			continue
		}
		if err := s.visionErr(1); err != nil {
			reports[i].Status, reports[i].Message, reports[i].Image = agent.MentionFailed, err.Error(), nil
		}
	}
}

// promptImages is the prompt's images: those given with it, then those
// its mentions attached.
func promptImages(given []provider.Image, reports []agent.MentionReport) []provider.Image {
	images := given
	for _, r := range reports {
		if r.Image != nil {
			images = append(images, *r.Image)
		}
	}
	return images
}

package lsp

import (
	"context"

	"github.com/agent-lsp/agent-lsp/agent"
)

// attachMentions attaches the files a prompt mentions (@path,
// @path#L3-5) and its context files (URIs), read from the editor's buffers
// or the disk inside the sandbox (agent.AttachMentions), and sends a
// mention update for each: what was attached and what was not, and why.
func (s *server) attachMentions(ctx context.Context, sess *session, prompt string, uris []string) (string, []agent.MentionReport) {
	docs := s.documents()
	if docs == nil {
		return prompt, nil
	}
	files := make([]string, len(uris))
	for i, uri := range uris {
		path, err := uriToPath(uri)
		if err != nil {
			path = uri // not a file URI: reported as refused by the sandbox
		}
		files[i] = path
	}
	text, reports := agent.AttachMentions(ctx, docs.ws, docs, prompt, files)
	for _, rep := range reports {
		s.sendControlUpdate(sess, "mention", &mentionUpdate{MentionReport: rep})
	}
	return text, reports
}

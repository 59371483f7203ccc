package acp

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"

	sdk "github.com/coder/acp-go-sdk"
	"go.uber.org/zap"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/agent/control"
)

// errCancelled is the cause of a prompt the client cancelled.
var errCancelled = errors.New("cancelled by the client (session/cancel)")

// Prompt implements sdk.Agent: the blocks become the controller's prompt
// input (text, files to attach, the client's unsaved contents), the
// prompt's events stream as session/update, and its end is the stop
// reason. A model failure is an error answer: ACP has no stop reason for
// it, and "refusal" is never invented.
func (a *server) Prompt(ctx context.Context, p sdk.PromptRequest) (sdk.PromptResponse, error) {
	s, err := a.session(p.SessionId)
	if err != nil {
		return sdk.PromptResponse{}, err
	}
	in, err := promptInput(p.Prompt)
	if err != nil {
		return sdk.PromptResponse{}, invalidParams(err)
	}
	if in.Delivery, err = promptDelivery(p.Meta); err != nil {
		return sdk.PromptResponse{}, invalidParams(err)
	}
	// The SDK cancels a session's running prompt when the next
	// session/prompt arrives (sdk_gaps.go, 6): the prompt runs on the
	// connection's lifetime instead, and session/cancel (Cancel) cancels it.
	ctx = a.ctx
	res, err := s.ctl.Prompt(ctx, in, &stream{s: s, ctx: a.ctx})
	switch {
	case err != nil && (errors.Is(err, control.ErrCancelled) || ctx.Err() != nil):
		// A cancelled turn answers "cancelled", never an error (ACP).
		return sdk.PromptResponse{StopReason: sdk.StopReasonCancelled}, nil
	case err != nil && res.Outcome.StopReason != agent.StopCancelled:
		return sdk.PromptResponse{}, reqErr(err)
	}
	o := res.Outcome
	switch {
	case o.StopReason == agent.StopSteered:
		return leftResponse(string(o.StopReason), ""), nil
	case o.StopReason == agent.StopCancelled && o.Notice == control.RemovedNotice:
		return leftResponse(string(o.StopReason), o.Notice), nil
	}
	if res.Command != "" && o.Rounds == 0 && o.Text != "" {
		// A built-in command answers without the model: its text is the reply.
		s.send(a.ctx, sdk.UpdateAgentMessageText(o.Text))
	}
	resp := sdk.PromptResponse{Usage: &sdk.Usage{
		InputTokens: o.Usage.PromptTokens, OutputTokens: o.Usage.CompletionTokens,
		TotalTokens: o.Usage.PromptTokens + o.Usage.CompletionTokens,
	}}
	if o.Usage.CachedTokens > 0 {
		resp.Usage.CachedReadTokens = sdk.Ptr(o.Usage.CachedTokens)
	}
	if o.Notice != "" {
		// ACP's stop reasons name no limit of ours: the client shows the
		// notice as the answer's last line.
		s.send(a.ctx, sdk.UpdateAgentMessageText("\n\n["+o.Notice+"]"))
	}
	switch o.StopReason {
	case agent.StopEndTurn, "":
		resp.StopReason = sdk.StopReasonEndTurn
	case agent.StopMaxTokens:
		resp.StopReason = sdk.StopReasonMaxTokens
	case agent.StopMaxRounds, agent.StopToolCallLimit:
		resp.StopReason = sdk.StopReasonMaxTurnRequests
	case agent.StopAnswerCut:
		resp.StopReason = sdk.StopReasonMaxTokens
	case agent.StopCancelled:
		resp.StopReason = sdk.StopReasonCancelled
	default:
		why := "the model call failed"
		if o.Err != nil {
			why = o.Err.Error()
		}
		a.log.Info("prompt failed", zap.String("session", string(s.id)), zap.String("error", why))
		return sdk.PromptResponse{}, sdk.NewInternalError(map[string]any{"error": why})
	}
	return resp, nil
}

// promptInput reads a prompt's blocks: text is the prompt; a resource
// link attaches its file like an @mention; an embedded text resource (the
// client's unsaved buffer) is attached with its contents. Images and
// binary resources are refused (promptCapabilities says so).
func promptInput(blocks []sdk.ContentBlock) (control.PromptInput, error) {
	var in control.PromptInput
	var text []string
	for i, b := range blocks {
		switch {
		case b.Text != nil:
			text = append(text, b.Text.Text)
		case b.ResourceLink != nil:
			path, err := filePath(b.ResourceLink.Uri)
			if err != nil {
				return in, fmt.Errorf("prompt[%d]: %w", i, err)
			}
			in.Files = append(in.Files, path)
		case b.Resource != nil:
			r := b.Resource.Resource.TextResourceContents
			if r == nil {
				return in, fmt.Errorf("prompt[%d]: only text resources are supported", i)
			}
			path, err := filePath(r.Uri)
			if err != nil {
				return in, fmt.Errorf("prompt[%d]: %w", i, err)
			}
			in.Resources = append(in.Resources, control.Resource{Path: path, Text: r.Text})
		default:
			return in, fmt.Errorf("prompt[%d]: unsupported content (images and audio are not accepted)", i)
		}
	}
	in.Text = strings.Join(text, "\n")
	if strings.TrimSpace(in.Text) == "" && len(in.Files) == 0 && len(in.Resources) == 0 {
		return in, errors.New("empty prompt")
	}
	return in, nil
}

// filePath is the absolute path of a file:// URI (or of an absolute path
// given as is).
func filePath(uri string) (string, error) {
	if filepath.IsAbs(uri) {
		return filepath.Clean(uri), nil
	}
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" || !filepath.IsAbs(u.Path) {
		return "", fmt.Errorf("%q is not a file:// URI of an absolute path", uri)
	}
	return filepath.Clean(u.Path), nil
}

func zapSession(s *session) zap.Field { return zap.String("session", string(s.id)) }
func zapErr(err error) zap.Field      { return zap.Error(err) }

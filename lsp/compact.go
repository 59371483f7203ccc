package lsp

import (
	"context"
	"encoding/json"
	"errors"

	"go.lsp.dev/jsonrpc2"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/agent/control"
)

// codeRequestFailed is LSP's RequestFailed (-32803): the request was valid
// but the server could not carry it out.
const codeRequestFailed jsonrpc2.Code = -32803

type compactParams struct {
	sessionRef
	WorkDoneToken json.RawMessage `json:"workDoneToken"`
	// Instructions say what the summary must keep (/compact's argument):
	// the summary call and the PreCompact hooks read them.
	Instructions string `json:"instructions,omitempty"`
}

type compactResult struct {
	BeforeTokens int    `json:"beforeTokens"`
	AfterTokens  int    `json:"afterTokens"`
	Elided       int    `json:"elided"`
	Summarised   int    `json:"summarised"`
	Error        string `json:"error,omitempty"`
}

// compact serves agent/compact: the session's history is compacted now
// (old tool outputs elided, the older messages summarised by a model
// call), after any running prompt of the session. A compacted update is
// sent when anything changed.
func (s *server) compact(ctx context.Context, sess *session, p compactParams) (compactResult, error) {
	if modelErr := sess.ctl.ModelErr(); modelErr != nil { // the summary is a model call
		return compactResult{}, jsonrpc2.Errorf(codeRequestFailed, "cannot compact: %v", modelErr)
	}

	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	prog := s.startProgress(ctx, p.WorkDoneToken, "agent-lsp", cancel)
	prog.report("Compacting")
	l := newUpdateListener(s, sess, prog)
	c, err := sess.ctl.Compact(agent.WithCompactInstructions(ctx, p.Instructions), l)
	l.close()

	res := compactResult{BeforeTokens: c.BeforeTokens, AfterTokens: c.AfterTokens, Elided: c.Elided, Summarised: c.Summarised}
	switch {
	case errors.Is(err, control.ErrModelUnavailable):
		prog.end("Failed: " + err.Error())
		return compactResult{}, jsonrpc2.Errorf(codeRequestFailed, "%v", err)
	case errors.Is(err, control.ErrCancelled):
		prog.end("Cancelled")
		return compactResult{}, errRequestCancelled
	case err != nil:
		prog.end("Failed: " + err.Error())
		res.Error = err.Error()
	default:
		prog.end(compactedMessage(c))
	}
	return res, nil
}

func compactedMessage(c agent.Compaction) string {
	if c.Elided == 0 && c.Summarised == 0 {
		return "Nothing to compact"
	}
	return "Compacted"
}

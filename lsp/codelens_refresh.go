package lsp

import (
	"context"
	"time"

	"go.uber.org/zap"
)

// codeLensRefreshWait bounds how long the daemon waits for the editor to
// acknowledge a refresh: it only asks the editor to ask again.
const codeLensRefreshWait = 10 * time.Second

// refreshCodeLenses asks the editor, when it can be asked
// (workspace/codeLens/refresh, LSP 3.16), to request the code lenses
// again: the "Revert agent change" lenses follow the session's
// checkpoints, which change after the editor last asked (a prompt's edits
// are recorded as the prompt runs, a rewind or revert drops them). Without
// it the lenses appear only when the user next types. The request runs
// on its own goroutine (owned by the server's tasks: shutdown waits, and
// the server's context ends it), so that no prompt's answer waits for it.
func (s *server) refreshCodeLenses() {
	if !s.caps().codeLensRefresh {
		return
	}
	s.tasks.Add(1)
	go func() {
		defer s.tasks.Done()
		ctx, cancel := context.WithTimeout(s.ctx, codeLensRefreshWait)
		defer cancel()
		if _, err := s.conn.Call(ctx, "workspace/codeLens/refresh", nil, nil); err != nil && !isClosed(err) && s.ctx.Err() == nil {
			s.log.Debug("workspace/codeLens/refresh", zap.Error(err))
		}
	}()
}

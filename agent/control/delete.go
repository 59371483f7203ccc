package control

import (
	"context"
	"errors"
	"io/fs"
	"slices"
)

// DeleteSession closes session id if it is loaded (its prompts cancelled,
// its queue dropped) and removes it from the store: its file, its texts
// and images. Unknown (neither loaded nor stored): ErrUnknownSession.
func (c *Controller) DeleteSession(id string) error {
	loaded, ok := c.Get(id)
	if ok {
		loaded.agent.Forget() // a prompt still winding down must not write the file again
		_ = c.CloseSession(id)
	}
	if c.o.Store == nil {
		if ok {
			return nil
		}
		return unknownSession(id)
	}
	err := c.o.Store.Delete(id)
	switch {
	case errors.Is(err, fs.ErrNotExist) && ok:
		return nil // loaded, never written
	case errors.Is(err, fs.ErrNotExist):
		return unknownSession(id)
	}
	return err
}

// CloseSession cancels the session's prompts, runs its SessionEnd hooks
// (reason "other") and forgets it; it stays stored, and Open resumes it.
func (c *Controller) CloseSession(id string) error {
	c.mu.Lock()
	s, ok := c.byID[id]
	if ok {
		delete(c.byID, id)
		c.order = slices.DeleteFunc(c.order, func(o *Session) bool { return o == s })
	}
	c.mu.Unlock()
	if !ok {
		return unknownSession(id)
	}
	s.DropQueue()
	s.Cancel(errors.New("session closed"))
	s.stopIdle(true)
	s.endHooks(context.Background(), EndOther) // bounded (LifecycleHooks.SessionEnd)
	return nil
}

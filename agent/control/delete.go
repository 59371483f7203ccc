package control

import (
	"errors"
	"io/fs"
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

package agent

import "slices"

// applyCheckpoint applies a committed checkpoint or rewind record to the
// session being loaded.
func (l *loaded) applyCheckpoint(r record) {
	switch {
	case r.Type == recRewind:
		if i := slices.IndexFunc(l.cps, func(c *Checkpoint) bool { return c.ID == r.CheckpointID }); i >= 0 {
			l.cps = l.cps[:i:i]
		}
	case r.Checkpoint != nil:
		i := slices.IndexFunc(l.cps, func(c *Checkpoint) bool { return c.ID == r.Checkpoint.ID })
		if i < 0 {
			c := *r.Checkpoint
			c.Files = nil
			l.cps = append(l.cps, &c)
			i = len(l.cps) - 1
		}
		c := l.cps[i]
		for _, f := range r.Checkpoint.Files {
			if j, ok := c.file(f.Path); ok {
				c.Files[j] = f
			} else {
				c.Files = append(c.Files, f)
			}
		}
	}
}

// validCheckpoints drops the conversation points a damaged file's repair
// moved past the history's end.
func validCheckpoints(cps []*Checkpoint, historyLen int) []*Checkpoint {
	for _, c := range cps {
		if c.HistoryLen > historyLen {
			c.HistoryLen = -1
		}
	}
	return cps
}

package term

import (
	"fmt"
	"io"
	"time"

	"github.com/agent-lsp/agent-lsp/agent/control"
)

// WriteSessions lists the sessions the controller knows: root's first,
// then the others with their workspace ("unknown" for sessions stored
// before it was recorded), most recently updated first in each part (the
// controller's order).
func WriteSessions(w io.Writer, list []control.SessionInfo, root string, now time.Time) {
	var here, other []control.SessionInfo
	for _, s := range list {
		if s.Root == root {
			here = append(here, s)
		} else {
			other = append(other, s)
		}
	}
	if len(list) == 0 {
		fmt.Fprintln(w, "no stored sessions")
		return
	}
	if len(here) == 0 {
		fmt.Fprintf(w, "no stored session of %s\n", root)
	} else {
		fmt.Fprintf(w, "sessions of %s (--resume ID, or --continue for the first):\n", root)
		for _, s := range here {
			fmt.Fprintf(w, "  %s  %-14s %s\n", s.ID, ago(now, s.Updated), titleOrNone(s.Title))
		}
	}
	if len(other) > 0 {
		fmt.Fprintln(w, "other workspaces:")
		for _, s := range other {
			ws := s.Root
			if ws == "" {
				ws = "unknown workspace"
			}
			fmt.Fprintf(w, "  %s  %-14s %s  (%s)\n", s.ID, ago(now, s.Updated), titleOrNone(s.Title), ws)
		}
	}
}

func titleOrNone(t string) string {
	if t == "" {
		return "(no prompt yet)"
	}
	return t
}

// ago is an update time as a person reads it in a list.
func ago(now, t time.Time) string {
	d := now.Sub(t)
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return fmt.Sprintf("%d min ago", int(d/time.Minute))
	case d < 24*time.Hour:
		return fmt.Sprintf("%d h ago", int(d/time.Hour))
	case d < 7*24*time.Hour:
		return fmt.Sprintf("%d days ago", int(d/(24*time.Hour)))
	}
	return t.Local().Format("2006-01-02")
}

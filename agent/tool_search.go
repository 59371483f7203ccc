package agent

import "slices"

// The session's side of tool search (tools/tool_search.go): the tools
// tool_search found are the session's, offered from then on in the order
// they were found, and stored with the session so that a resumed one
// offers the same list (and keeps the prompt cache's prefix).

// foundTools are the names tool_search found in this session, in order.
func (s *Session) foundTools() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.found
}

// addFoundTools is the Env's ToolsFound sink: the names not found before
// are appended, and stored with the round.
func (s *Session) addFoundTools(names []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var added []string
	for _, n := range names {
		if !slices.Contains(s.found, n) && !slices.Contains(added, n) {
			added = append(added, n)
		}
	}
	if len(added) == 0 {
		return
	}
	// A new slice: a request being built may hold the old one.
	s.found = append(slices.Clip(s.found), added...)
	if s.cfg.Store != nil {
		s.pending = append(s.pending, record{Type: recToolsFound, Found: added})
	}
}

// appendFound is the loader's copy of addFoundTools.
func appendFound(found, names []string) []string {
	for _, n := range names {
		if !slices.Contains(found, n) {
			found = append(found, n)
		}
	}
	return found
}

package agent

// ForkSession starts a new session whose conversation is a copy of
// from's: its own id, file and content store, the same history (images
// kept again under the new session), from then on apart. The fork is
// written at once, so it is listed and can be loaded like any session;
// its totals start at zero (what it costs is its own).
func ForkSession(cfg Config, from *Session) *Session {
	s := newSession(cfg)
	// A fork taken while a round runs copies calls not answered yet: they
	// are answered as interrupted, as after a crash.
	history := repairHistory(from.History(), s.cfg.Logger)
	s.id = newSessionID(s.created)
	s.content = openContent(cfg.Store, s.id)
	for _, m := range history {
		if len(m.Images) > 0 {
			s.keepImages(m.Images)
		}
	}
	s.append(history...)
	// The fork goes on as the source was going: in its mode, and with the
	// model it was switched to, kept as the fork's stored model for the
	// controller to bind as it binds a resumed session's (the user's
	// flags still win there).
	if m := from.Mode(); m != s.mode {
		_ = s.SetMode(m) // one of Modes: it is the source's
	} else if s.mode != ModeDefault && cfg.Store != nil {
		s.pending = append(s.pending, record{Type: recMode, Mode: s.mode})
	}
	if rec, ok := from.StoredModel(); ok {
		s.storedModel = &rec
		if cfg.Store != nil {
			s.pending = append(s.pending, record{Type: recModel, Connection: &rec})
		}
	}
	s.commit()
	return s
}

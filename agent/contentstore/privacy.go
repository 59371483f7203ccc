package contentstore

// Privacy tells the texts that must never reach the disk (they hold a
// secret): such a text is kept in memory, for the life of the Store only.
type Privacy interface {
	// Private reports whether text is private, and the rules it was
	// judged by (comparable): a text found not private under some rules
	// stays so under them.
	Private(text string) (private bool, rules any)
	// PrivateChange is Private for a text that differs only in
	// text[from:to] from one found not private under rules (text[:from]
	// is that text's start, text[to:] its end). ok is false when rules
	// are no longer the rules in force: the caller judges the whole text.
	PrivateChange(text string, from, to int, rules any) (private bool, rulesNow any, ok bool)
}

// PrivateFunc is a Privacy that judges every text whole.
type PrivateFunc func(text string) bool

// Private calls f.
func (f PrivateFunc) Private(text string) (bool, any) { return f(text), nil }

// PrivateChange judges nothing by parts: ok is false.
func (f PrivateFunc) PrivateChange(string, int, int, any) (bool, any, bool) { return false, nil, false }

// maxCleared bounds the texts a Store remembers as judged not private: an
// edit needs the one it changes, a prompt's edits the few they chain.
const maxCleared = 64

// judge reports whether text (hashed h) is private: by the region that
// differs from base when base was found not private by this store (its
// text baseText, its common prefix and suffix with text known), else
// whole. A text found not private is remembered with the rules that
// found it so.
func (s *Store) judge(h Hash, text string, base Hash, baseText *string, prefix, suffix int) bool {
	if s.dir == "" || s.privacy == nil {
		return false
	}
	var (
		private bool
		rules   any
		judged  bool
	)
	if baseText != nil {
		s.mu.Lock()
		baseRules, cleared := s.cleared[base]
		s.mu.Unlock()
		if cleared {
			private, rules, judged = s.privacy.PrivateChange(text, prefix, len(text)-suffix, baseRules)
		}
	}
	if !judged {
		private, rules = s.privacy.Private(text)
	}
	if !private {
		s.mu.Lock()
		if len(s.cleared) >= maxCleared {
			clear(s.cleared)
		}
		s.cleared[h] = rules
		s.mu.Unlock()
	}
	return private
}

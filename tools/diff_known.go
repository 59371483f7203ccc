package tools

// Unchanged is what a caller knows two texts share at their ends: the
// first Prefix bytes of both are the same, and so are the last Suffix
// bytes (they may share more). An edit_file replacement knows it from
// where it matched, so the diffs of its approval preview and of the
// editor's applyEdit compare only what lies between, not twice 20 MB of
// a one-character edit. The zero value knows nothing.
type Unchanged struct{ Prefix, Suffix int }

// within is known as far as it can hold for a and b: nothing when its
// ends overlap in either text (it was not made for these texts).
func (known Unchanged) within(a, b string) Unchanged {
	if known.Prefix < 0 || known.Suffix < 0 ||
		known.Prefix+known.Suffix > len(a) || known.Prefix+known.Suffix > len(b) {
		return Unchanged{}
	}
	return known
}

// same reports a == b, comparing only the bytes between the known ends
// (known must be within a and b).
func (known Unchanged) same(a, b string) bool {
	return len(a) == len(b) && a[known.Prefix:len(a)-known.Suffix] == b[known.Prefix:len(b)-known.Suffix]
}

// unchanged is what the replacement knows its text and the text it makes
// share: the text up to the first match (as far as the final newline
// rule's cut leaves it), and after the last when that rule leaves the end
// as it is. Nothing for a \r\n file
// matched on a \n copy (offsets into the copy).
func (r replacement) unchanged() Unchanged {
	if r.normalized || len(r.offsets) == 0 {
		return Unchanged{}
	}
	known := Unchanged{Prefix: r.offsets[0]}
	switch r.fix {
	case 0:
		known.Suffix = len(r.text) - (r.offsets[len(r.offsets)-1] + len(r.old))
	case -1: // the final newline cut may reach into the text before the first match
		known.Prefix = min(known.Prefix, r.size()-len(r.nl))
	}
	return known
}

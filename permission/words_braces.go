package permission

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// maxBraceVariants caps brace expansion ({a,b}{c,d}...) so that a crafted
// word cannot make the detector allocate without bound.
const maxBraceVariants = 64

// braceVariants expands {a,b} alternatives into separate words, at most
// maxBraceVariants of them; complete is false when some were dropped.
// Sequences ({1..9}) are left as written.
func braceVariants(w *syntax.Word) (variants []*syntax.Word, complete bool) {
	hasBrace := false
	for _, p := range w.Parts {
		if l, ok := p.(*syntax.Lit); ok && strings.Contains(l.Value, "{") {
			hasBrace = true
			break
		}
	}
	if !hasBrace {
		return []*syntax.Word{w}, true
	}
	split := &syntax.Word{Parts: append([]syntax.WordPart(nil), w.Parts...)}
	syntax.SplitBraces(split)
	complete = true
	var walk func(parts []syntax.WordPart)
	walk = func(parts []syntax.WordPart) {
		if len(variants) >= maxBraceVariants {
			complete = false
			return
		}
		for i, p := range parts {
			be, ok := p.(*syntax.BraceExp)
			if !ok || be.Sequence {
				continue
			}
			for _, elem := range be.Elems {
				next := make([]syntax.WordPart, 0, len(parts)+len(elem.Parts))
				next = append(next, parts[:i]...)
				next = append(next, elem.Parts...)
				next = append(next, parts[i+1:]...)
				walk(next)
			}
			return
		}
		variants = append(variants, &syntax.Word{Parts: parts})
	}
	walk(split.Parts)
	return variants, complete
}

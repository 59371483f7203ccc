package contentstore

import "strings"

// chunk is the stride of the prefix and suffix scans: string comparison
// of a chunk is a vectorised memequal, so only the chunk that differs is
// walked byte by byte.
const chunk = 4096

// common returns the lengths of the longest common prefix of a and b and
// of their longest common suffix in what the prefix leaves: the change
// from a to b is b[prefix:len(b)-suffix] in place of a[prefix:len(a)-suffix].
func common(a, b string) (prefix, suffix int) {
	n := min(len(a), len(b))
	for prefix+chunk <= n && a[prefix:prefix+chunk] == b[prefix:prefix+chunk] {
		prefix += chunk
	}
	for prefix < n && a[prefix] == b[prefix] {
		prefix++
	}
	rest := n - prefix
	for suffix+chunk <= rest && a[len(a)-suffix-chunk:len(a)-suffix] == b[len(b)-suffix-chunk:len(b)-suffix] {
		suffix += chunk
	}
	for suffix < rest && a[len(a)-1-suffix] == b[len(b)-1-suffix] {
		suffix++
	}
	return prefix, suffix
}

// rebuild returns the text of chain[0], given the chain of blobs down to
// a whole text (last). The deltas are applied to a list of pieces (slices
// of the whole text and of the middles), so a chain of d deltas costs
// O(d²) small steps and one copy of the result; a whole text is returned
// as stored.
func rebuild(chain []*blob) string {
	last := chain[len(chain)-1]
	if len(chain) == 1 {
		return last.data
	}
	pieces := []string{last.data}
	size := last.size
	for i := len(chain) - 2; i >= 0; i-- {
		d := chain[i]
		next := cut(pieces, 0, d.prefix)
		if d.data != "" {
			next = append(next, d.data)
		}
		pieces = append(next, cut(pieces, size-d.suffix, size)...)
		size = d.size
	}
	var sb strings.Builder
	sb.Grow(int(size))
	for _, p := range pieces {
		sb.WriteString(p)
	}
	return sb.String()
}

// cut returns the pieces of bytes [from, to) of the concatenation of pieces.
func cut(pieces []string, from, to int64) []string {
	var out []string
	var off int64
	for _, p := range pieces {
		start, end := off, off+int64(len(p))
		off = end
		if end <= from || start >= to {
			continue
		}
		lo, hi := max(from, start)-start, min(to, end)-start
		out = append(out, p[lo:hi])
	}
	return out
}

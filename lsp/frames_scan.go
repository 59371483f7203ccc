package lsp

import (
	"bytes"
	"encoding/json"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// The JSON scanning decodeTextFrame needs, over a body already checked
// valid (json.Valid): stepping over values, finding an object's keys, and
// unquoting a string where it lies.

// topFields are a message's id, method and params.
func topFields(body []byte) map[string]int {
	i := skipSpace(body, 0)
	if i >= len(body) || body[i] != '{' {
		return nil
	}
	return objectFields(body, i, "id", "method", "params")
}

// objectFields returns where the values of the named keys start in the
// object at body[i] (-1: absent), or nil when that is not an object or a
// key could be read as one of them other than by its exact spelling
// (encoding/json matches keys ignoring case, takes the last of duplicates
// and unescapes key names: those cases are left to it).
func objectFields(body []byte, i int, names ...string) map[string]int {
	if i >= len(body) || body[i] != '{' {
		return nil
	}
	found := make(map[string]int, len(names))
	for _, n := range names {
		found[n] = -1
	}
	i = skipSpace(body, i+1)
	for body[i] != '}' {
		end := skipString(body, i)
		key := body[i+1 : end-1]
		i = skipSpace(body, end)
		i = skipSpace(body, i+1) // the colon
		for _, n := range names {
			exact := string(key) == n
			switch {
			case exact && found[n] >= 0, !exact && bytes.EqualFold(key, []byte(n)), !exact && bytes.IndexByte(key, '\\') >= 0:
				return nil
			case exact:
				found[n] = i
			}
		}
		i = skipSpace(body, skipValue(body, i))
		if body[i] == ',' {
			i = skipSpace(body, i+1)
		}
	}
	return found
}

// plainString is the string at body[i] when it has no escapes.
func plainString(body []byte, i int) (string, bool) {
	if body[i] != '"' {
		return "", false
	}
	raw := body[i+1 : skipString(body, i)-1]
	if bytes.IndexByte(raw, '\\') >= 0 {
		return "", false
	}
	return string(raw), true
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}

// skipString returns the index just past the string whose opening quote is
// at b[i]. A quote is the closing one when an even number of backslashes
// precede it; the search for quotes is bytes.IndexByte's, which is what
// makes a 21 MB text cheap to step over.
func skipString(b []byte, i int) int {
	i++
	for {
		q := bytes.IndexByte(b[i:], '"')
		if q < 0 {
			return len(b)
		}
		i += q
		slashes := 0
		for j := i - 1; j >= 0 && b[j] == '\\'; j-- {
			slashes++
		}
		i++
		if slashes%2 == 0 {
			return i
		}
	}
}

// skipValue returns the index just past the value starting at b[i].
func skipValue(b []byte, i int) int {
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for i < len(b) {
			switch b[i] {
			case '"':
				i = skipString(b, i)
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return i
	}
	for i < len(b) && !endsLiteral(b[i]) {
		i++
	}
	return i
}

// endsLiteral reports a byte that ends a number, true, false or null.
func endsLiteral(c byte) bool {
	switch c {
	case ',', '}', ']', ' ', '\t', '\r', '\n':
		return true
	}
	return false
}

// unquoteInPlace decodes the JSON string raw (quotes included) into raw's
// own memory and returns it as a string sharing that memory, decoding as
// encoding/json does (invalid surrogates become U+FFFD). Unescaping only
// shrinks valid UTF-8, so the write never overtakes the read; text with
// invalid UTF-8 (which encoding/json widens to U+FFFD) is decoded by
// encoding/json into new memory instead.
func unquoteInPlace(raw []byte) string {
	s := raw[1 : len(raw)-1]
	if !utf8.Valid(s) {
		var out string
		if json.Unmarshal(raw, &out) != nil {
			return ""
		}
		return out
	}
	w := 0
	for r := 0; r < len(s); {
		if s[r] != '\\' {
			run := bytes.IndexByte(s[r:], '\\')
			if run < 0 {
				run = len(s) - r
			}
			w += copy(s[w:], s[r:r+run])
			r += run
			continue
		}
		c := s[r+1]
		r += 2
		switch c {
		case 'b':
			s[w] = '\b'
		case 'f':
			s[w] = '\f'
		case 'n':
			s[w] = '\n'
		case 'r':
			s[w] = '\r'
		case 't':
			s[w] = '\t'
		case 'u':
			rr := hex4(s[r-2:])
			r += 4
			if utf16.IsSurrogate(rr) {
				if low := hex4(s[r:]); low >= 0 {
					if dec := utf16.DecodeRune(rr, low); dec != unicode.ReplacementChar {
						r += 6
						w += utf8.EncodeRune(s[w:], dec)
						continue
					}
				}
				rr = unicode.ReplacementChar
			}
			w += utf8.EncodeRune(s[w:], rr)
			continue
		default: // '"', '\\', '/'
			s[w] = c
		}
		w++
	}
	if w == 0 {
		return ""
	}
	return unsafe.String(&s[0], w)
}

// hex4 reads `\uXXXX` at b, or -1.
func hex4(b []byte) rune {
	if len(b) < 6 || b[0] != '\\' || b[1] != 'u' {
		return -1
	}
	var r rune
	for _, c := range b[2:6] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r*16 + rune(c)
	}
	return r
}

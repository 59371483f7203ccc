package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"

	"go.lsp.dev/jsonrpc2"
)

// Text document frames are the one place where the JSON-RPC library's
// decoding is bypassed (stream.Read calls decodeTextFrame first).
//
// Why: after an edit an editor may send a whole file's text in a didOpen
// or didChange, and through the library it was held three times over: the
// frame's body, the copy jsonrpc2.DecodeMessage makes of the params
// (json.RawMessage copies), and the string encoding/json unquotes from
// those. For a 21 MB file that was 126 of the 192 MB the daemon allocated.
//
// Here the text fields (didOpen's textDocument.text, each didChange
// contentChanges[i].text) are found in the body by one scan, unescaped in
// place, and become strings that share the body's memory: the frame is
// the document's one copy. The rest of the message, with "" in place of
// each text, goes through the library as any other message (it is small),
// and the handler takes the texts from its context (frameTexts).
//
// Anything unusual (an id, a text that is not a string, a duplicated or
// differently cased key, escapes in key names) is left to the library's
// path, which answers exactly as before; so is every other method.

// textNotification is a didOpen or didChange decoded by decodeTextFrame:
// its params hold "" for each text, texts the decoded ones in order.
type textNotification struct {
	*jsonrpc2.Notification
	texts []string
}

// textFrameMethods are the methods whose texts decodeTextFrame takes out,
// with the path to their text fields.
var textFrameMethods = map[string]func(params []byte, at int) ([]span, bool){
	"textDocument/didOpen":   didOpenTextSpans,
	"textDocument/didChange": didChangeTextSpans,
}

// span is a JSON string value in the body: from its opening quote to just
// past its closing one.
type span struct{ start, end int }

// decodeTextFrame decodes a text synchronisation notification, body being
// valid JSON (stream.Read checked it). ok false: not one, or not one this
// decoder takes; the library's path decodes it instead. body is owned by
// the returned texts from then on: it must not be reused.
func decodeTextFrame(body []byte) (*textNotification, bool) {
	top := topFields(body)
	if top == nil || top["id"] >= 0 || top["method"] < 0 || top["params"] < 0 {
		return nil, false
	}
	method, ok := plainString(body, top["method"])
	if !ok {
		return nil, false
	}
	find, ok := textFrameMethods[method]
	if !ok {
		return nil, false
	}
	spans, ok := find(body, top["params"])
	if !ok || len(spans) == 0 {
		return nil, false
	}
	// The message without its texts, for the library.
	size := len(body)
	for _, sp := range spans {
		size -= sp.end - sp.start - 2
	}
	rest := make([]byte, 0, size)
	at := 0
	for _, sp := range spans {
		rest = append(append(rest, body[at:sp.start]...), `""`...)
		at = sp.end
	}
	rest = append(rest, body[at:]...)
	msg, err := jsonrpc2.DecodeMessage(rest)
	n, isNotification := msg.(*jsonrpc2.Notification)
	if err != nil || !isNotification {
		return nil, false
	}
	texts := make([]string, len(spans))
	for i, sp := range spans {
		texts[i] = unquoteInPlace(body[sp.start:sp.end])
	}
	return &textNotification{Notification: n, texts: texts}, true
}

// didOpenTextSpans finds params.textDocument.text.
func didOpenTextSpans(body []byte, params int) ([]span, bool) {
	doc := objectFields(body, params, "textDocument")
	if doc == nil || doc["textDocument"] < 0 {
		return nil, false
	}
	text := objectFields(body, doc["textDocument"], "text")
	if text == nil || text["text"] < 0 || body[text["text"]] != '"' {
		return nil, false
	}
	start := text["text"]
	return []span{{start, skipString(body, start)}}, true
}

// didChangeTextSpans finds params.contentChanges[*].text: every change
// must have one.
func didChangeTextSpans(body []byte, params int) ([]span, bool) {
	p := objectFields(body, params, "contentChanges")
	if p == nil || p["contentChanges"] < 0 {
		return nil, false
	}
	i := p["contentChanges"]
	if body[i] != '[' {
		return nil, false
	}
	var spans []span
	i = skipSpace(body, i+1)
	for body[i] != ']' {
		change := objectFields(body, i, "text")
		if change == nil || change["text"] < 0 || body[change["text"]] != '"' {
			return nil, false
		}
		start := change["text"]
		spans = append(spans, span{start, skipString(body, start)})
		i = skipSpace(body, skipValue(body, i))
		if body[i] == ',' {
			i = skipSpace(body, i+1)
		}
	}
	return spans, true
}

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

// frameTextsKey is the context key of a text frame's decoded texts.
type frameTextsKey struct{}

// withFrameTexts gives the handler of a decoded text frame its texts.
func withFrameTexts(ctx context.Context, texts []string) context.Context {
	return context.WithValue(ctx, frameTextsKey{}, texts)
}

// frameTexts are the texts decodeTextFrame took out of the params being
// handled, in order (none when the library decoded them).
func frameTexts(ctx context.Context) ([]string, bool) {
	t, ok := ctx.Value(frameTextsKey{}).([]string)
	return t, ok
}

package lsp

import (
	"context"

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

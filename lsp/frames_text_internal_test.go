package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.uber.org/zap"
)

// libraryParams decodes a message's params the way every other message is
// decoded: jsonrpc2, then the route's decodeParams.
func libraryParams(t *testing.T, body []byte, into any) error {
	t.Helper()
	msg, err := jsonrpc2.DecodeMessage(body)
	if err != nil {
		t.Fatalf("the library cannot decode %s: %v", clip(string(body), 200), err)
	}
	return decodeParams(msg.(jsonrpc2.Request).Params(), into)
}

// decodedParams decodes body through decodeTextFrame and puts the texts
// back the way didOpen and didChange do.
func decodedParams(t *testing.T, body []byte, into any) {
	t.Helper()
	n, ok := decodeTextFrame(bytes.Clone(body))
	if !ok {
		t.Fatalf("decodeTextFrame left %s to the library", clip(string(body), 200))
	}
	if err := decodeParams(n.Params(), into); err != nil {
		t.Fatalf("the params without their texts do not decode: %v", err)
	}
	switch p := into.(type) {
	case *protocol.DidOpenTextDocumentParams:
		if len(n.texts) != 1 {
			t.Fatalf("didOpen gave %d texts", len(n.texts))
		}
		p.TextDocument.Text = n.texts[0]
	case *didChangeParams:
		if len(n.texts) != len(p.ContentChanges) {
			t.Fatalf("didChange gave %d texts for %d changes", len(n.texts), len(p.ContentChanges))
		}
		for i := range n.texts {
			p.ContentChanges[i].Text = n.texts[i]
		}
	}
}

func didOpenBody(rawText string) string {
	return `{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///w/a.go","languageId":"go","version":3,"text":` + rawText + `}}}`
}

// A text frame decodes to exactly what the library's path gives.
func TestTextFrameDecodedAsTheLibraryDoes(t *testing.T) {
	opens := map[string]string{
		"plain":                 `"package a\u000a"`,
		"empty":                 `""`,
		"escapes":               `"a\"b\\c\/d\b\f\n\r\t end"`,
		"escaped unicode":       `"\u00e9\u00E9 \u4e2d \ud83c\udf89 end"`,
		"raw unicode":           `"héllo wörld 🎉 中"`,
		"lone high surrogate":   `"a\ud83cb"`,
		"lone low surrogate":    `"a\udf89b"`,
		"high then not low":     `"\ud83c\u0041"`,
		"two highs":             `"\ud83c\ud83c\udf89"`,
		"invalid UTF-8":         "\"a\xffb\xc3\"",
		"escaped quote at end":  `"ends with \\"`,
		"backslashes then text": `"\\\\\" quote"`,
	}
	for name, raw := range opens {
		t.Run("didOpen "+name, func(t *testing.T) {
			body := []byte(didOpenBody(raw))
			var want, got protocol.DidOpenTextDocumentParams
			if err := libraryParams(t, body, &want); err != nil {
				t.Fatal(err)
			}
			decodedParams(t, body, &got)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("decoded %+v\nlibrary %+v", got, want)
			}
		})
	}
	changes := map[string]string{
		"whole text": `{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///w/a.go","version":4},"contentChanges":[{"text":"x\ny\u00e9"}]}}`,
		"ranges and spaces": "{ \"params\" : { \"contentChanges\" : [ { \"range\" : {\"start\":{\"line\":0,\"character\":1},\"end\":{\"line\":0,\"character\":2}} , \"text\" : \"[\\\"}\" } ,\n" +
			"{\"text\":\"\",\"range\":{\"start\":{\"line\":1,\"character\":0},\"end\":{\"line\":1,\"character\":0}},\"rangeLength\":0} ] , \"textDocument\" : {\"version\":5,\"uri\":\"file:///w/a.go\"} } , \"method\" : \"textDocument/didChange\" , \"jsonrpc\" : \"2.0\" }",
		"text before other fields": `{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"contentChanges":[{"text":"{\"a\":[1,2]}","range":null}],"textDocument":{"uri":"file:///w/a.go","version":6}}}`,
	}
	for name, body := range changes {
		t.Run("didChange "+name, func(t *testing.T) {
			var want, got didChangeParams
			if err := libraryParams(t, []byte(body), &want); err != nil {
				t.Fatal(err)
			}
			decodedParams(t, []byte(body), &got)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("decoded %+v\nlibrary %+v", got, want)
			}
		})
	}
}

// What decodeTextFrame does not take goes through the library, which
// answers it as before (a text that is not a string: -32602).
func TestTextFrameLeftToTheLibrary(t *testing.T) {
	cases := map[string]string{
		"text not a string":          didOpenBody(`5`),
		"text null":                  didOpenBody(`null`),
		"a call, not a notification": `{"jsonrpc":"2.0","id":1,"method":"textDocument/didOpen","params":{"textDocument":{"text":"x"}}}`,
		"another method":             `{"jsonrpc":"2.0","method":"textDocument/didSave","params":{"textDocument":{"uri":"file:///a"},"text":"x"}}`,
		"duplicate text":             `{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"text":"x","text":"y"}}}`,
		"differently cased key":      `{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"Text":"x"}}}`,
		"escaped key":                `{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"te\u0078t":"x"}}}`,
		"escaped method":             `{"jsonrpc":"2.0","method":"textDocument\/didOpen","params":{"textDocument":{"text":"x"}}}`,
		"no changes":                 `{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"contentChanges":[]}}`,
		"a change without text":      `{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"contentChanges":[{"text":"a"},{"range":null}]}}`,
		"changes not an array":       `{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"contentChanges":{"text":"a"}}}`,
		"params not an object":       `{"jsonrpc":"2.0","method":"textDocument/didOpen","params":"text"}`,
		"wrong version":              `{"jsonrpc":"1.0","method":"textDocument/didOpen","params":{"textDocument":{"text":"x"}}}`,
		"not an object":              `["textDocument/didOpen"]`,
	}
	for name, body := range cases {
		t.Run(name, func(t *testing.T) {
			if !json.Valid([]byte(body)) {
				t.Fatalf("the case is not JSON: %s", body)
			}
			if n, ok := decodeTextFrame([]byte(body)); ok {
				t.Errorf("decodeTextFrame took it: %+v", n)
			}
		})
	}
	var p protocol.DidOpenTextDocumentParams
	if err := libraryParams(t, []byte(didOpenBody(`5`)), &p); err == nil || !strings.Contains(err.Error(), "invalid params") {
		t.Errorf("a text that is not a string: %v, want invalid params", err)
	}
}

// FuzzUnquoteInPlace: every JSON string decodes as encoding/json decodes it.
func FuzzUnquoteInPlace(f *testing.F) {
	for _, s := range []string{`a\nb`, `\ud83c\udf89`, `\ud83c`, `\\\"`, "\xff", `\u0000`, "héllo", ""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, inner []byte) {
		raw := append(append([]byte{'"'}, inner...), '"')
		var want string
		if json.Unmarshal(raw, &want) != nil {
			return // not a JSON string: the frame was refused before
		}
		if got := unquoteInPlace(bytes.Clone(raw)); got != want {
			t.Errorf("unquote %q = %q, want %q", raw, got, want)
		}
	})
}

// A 20 MiB didOpen, read from the stream and handled, allocates about the
// frame once: the frame's body is the document's text. Through the
// library the text was held three times over (body, the decoder's copy,
// the unquoted string).
func TestTextFrameAllocatesOnce(t *testing.T) {
	var text strings.Builder
	for text.Len() < 20<<20 {
		fmt.Fprintf(&text, "line %07d:\t\"quoted\" text, é and 🎉\n", text.Len())
	}
	raw, _ := json.Marshal(text.String())
	body := didOpenBody(string(raw))
	input := fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body)
	st := newStream(strings.NewReader(input), &bytes.Buffer{}, zap.NewNop())
	s := &server{overlays: newOverlays(), log: zap.NewNop(), state: stateInitialized}
	defer s.release.stop()
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	msg, _, err := st.Read(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	_ = s.handle(context.Background(), func(context.Context, any, error) error { return nil }, msg.(jsonrpc2.Request))
	runtime.ReadMemStats(&after)
	ov, open := s.overlays.get(canonicalPath("/w/a.go"))
	if !open || ov.text != text.String() || ov.version != 3 {
		t.Fatalf("open = %v, text of %d bytes (equal: %v), version %d", open, len(ov.text), ov.text == text.String(), ov.version)
	}
	allocated := after.TotalAlloc - before.TotalAlloc
	t.Logf("a %d-byte didOpen read and handled: %d bytes allocated (%.2f× the frame)", len(body), allocated, float64(allocated)/float64(len(body)))
	if limit := uint64(len(body)) * 5 / 4; allocated > limit {
		t.Errorf("reading and handling a %d-byte didOpen allocated %d bytes (%.1f× the frame), want ≤ %d",
			len(body), allocated, float64(allocated)/float64(len(body)), limit)
	}
}

// FuzzDecodeTextFrame: on any JSON, decodeTextFrame does not panic, and
// what it takes decodes to the library's params.
func FuzzDecodeTextFrame(f *testing.F) {
	f.Add([]byte(didOpenBody(`"a\nb\u00e9\ud83c\udf89"`)))
	f.Add([]byte(`{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///a","version":2},"contentChanges":[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}},"text":"x"},{"text":"y\\"}]}}`))
	f.Add([]byte(`{"method":"textDocument/didOpen","params":{"textDocument":{"text":"\"}\"","uri":[]}},"jsonrpc":"2.0"}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		if !json.Valid(body) {
			return
		}
		n, ok := decodeTextFrame(bytes.Clone(body))
		if !ok {
			return
		}
		switch n.Method() {
		case "textDocument/didOpen":
			var want, got protocol.DidOpenTextDocumentParams
			if libraryParams(t, body, &want) != nil {
				return // the library refuses it: so does the route, the texts aside
			}
			decodedParams(t, body, &got)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("decoded %+v\nlibrary %+v", got, want)
			}
		case "textDocument/didChange":
			var want, got didChangeParams
			if libraryParams(t, body, &want) != nil {
				return
			}
			decodedParams(t, body, &got)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("decoded %+v\nlibrary %+v", got, want)
			}
		default:
			t.Errorf("decodeTextFrame took a %q", n.Method())
		}
	})
}

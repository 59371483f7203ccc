package lsp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"go.lsp.dev/jsonrpc2"
	"go.uber.org/zap"
)

func deltaUpdate(seq int64) *textUpdate {
	return &textUpdate{updateHeader: updateHeader{SessionID: "s-0123456789", Seq: seq, Kind: "text"},
		textBody: textBody{Text: "t=1733550000000000000; a \"delta\" <of> text\n"}}
}

// The notification stream.notify writes is the one jsonrpc2's Notify
// writes, byte for byte apart from the library's HTML escaping.
func TestStreamNotifyAsTheLibraryWrites(t *testing.T) {
	var direct, library bytes.Buffer
	if err := newStream(strings.NewReader(""), &direct, zap.NewNop()).notify("agent/update", deltaUpdate(7)); err != nil {
		t.Fatal(err)
	}
	conn := jsonrpc2.NewConn(newStream(strings.NewReader(""), &library, zap.NewNop()))
	if err := conn.Notify(context.Background(), "agent/update", deltaUpdate(7)); err != nil {
		t.Fatal(err)
	}
	read := func(b *bytes.Buffer) (n struct {
		JSONRPC string
		Method  string
		Params  textUpdate
	}) {
		r := bufio.NewReader(b)
		f := &frameReader{r: r}
		body, err := f.frame()
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(body, &n); err != nil {
			t.Fatal(err)
		}
		if _, err := r.ReadByte(); err != io.EOF {
			t.Fatalf("more than one frame written")
		}
		return n
	}
	d, l := read(&direct), read(&library)
	if d != l || d.JSONRPC != "2.0" || d.Params.Seq != 7 {
		t.Errorf("stream.notify wrote %+v, the library %+v", d, l)
	}
}

// BenchmarkUpdateNotify: one streamed delta's agent/update, through
// jsonrpc2's Notify (the peer) and stream.notify, in the same run.
func BenchmarkUpdateNotify(b *testing.B) {
	st := newStream(strings.NewReader(""), io.Discard, zap.NewNop())
	conn := jsonrpc2.NewConn(st)
	b.Run("jsonrpc2", func(b *testing.B) {
		b.ReportAllocs()
		for i := range b.N {
			if err := conn.Notify(context.Background(), "agent/update", deltaUpdate(int64(i))); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("stream", func(b *testing.B) {
		b.ReportAllocs()
		for i := range b.N {
			if err := st.notify("agent/update", deltaUpdate(int64(i))); err != nil {
				b.Fatal(err)
			}
		}
	})
}

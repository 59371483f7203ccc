package lsp_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/internal/await"
	"github.com/agent-lsp/agent-lsp/lsp"
	"github.com/agent-lsp/agent-lsp/provider"
)

func frame(body string) string {
	return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body)
}

// rawResponse is one message the daemon wrote.
type rawResponse struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func readFrame(r *bufio.Reader) (rawResponse, error) {
	var n int
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return rawResponse{}, err
		}
		line = strings.TrimSpace(line)
		if line == "" {
			break
		}
		if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
			n, _ = strconv.Atoi(v)
		}
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(r, body); err != nil {
		return rawResponse{}, err
	}
	var m rawResponse
	err := json.Unmarshal(body, &m)
	return m, err
}

// Malformed input gets an error answer and the daemon keeps serving: the
// initialize that follows each case is answered.
func TestMalformedFrames(t *testing.T) {
	init := frame(`{"jsonrpc":"2.0","id":7,"method":"initialize","params":{"rootUri":"file:///tmp"}}`)
	cases := []struct {
		name     string
		input    string
		wantCode int // the error answered before initialize's result
		wantID   string
	}{
		{"invalid JSON", frame(`{"jsonrpc":"2.0","id":1,"method":`), -32700, "null"},
		{"not a header", "hello there\r\n\r\n", -32700, "null"},
		{"bad Content-Length", "Content-Length: abc\r\n\r\n{}", -32700, "null"},
		{"negative Content-Length", "Content-Length: -5\r\n\r\n", -32700, "null"},
		{"huge Content-Length", "Content-Length: 999999999999\r\n\r\n", -32700, "null"},
		{"missing Content-Length", "Content-Type: x\r\n\r\n", -32700, "null"},
		{"body longer than declared", "Content-Length: 10\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"x\"}", -32700, "null"},
		{"truncated body swallowing the next frame",
			"Content-Length: 60\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":1}", -32700, "null"},
		{"wrong version", frame(`{"jsonrpc":"1.0","id":3,"method":"initialize"}`), -32600, "3"},
		{"array batch", frame(`[1,2]`), -32600, "null"},
		{"wrong params type", frame(`{"jsonrpc":"2.0","id":4,"method":"initialize","params":{"rootUri":5}}`), -32602, "4"},
		{"params not an object", frame(`{"jsonrpc":"2.0","id":5,"method":"initialize","params":"x"}`), -32602, "5"},
		{"truncated text", frame(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///x","text":"ab\u00`), -32700, "null"},
		{"text swallowing the next frame", // its length reaches into the initialize that follows
			"Content-Length: 110\r\n\r\n{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didChange\",\"params\":{\"contentChanges\":[{\"text\":\"ab", -32700, "null"},
		{"huge text frame", "Content-Length: 67108865\r\n\r\n{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didOpen\"", -32700, "null"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srvIn, toSrv := io.Pipe()
			fromSrv, srvOut := io.Pipe()
			done := make(chan struct{})
			go func() {
				defer close(done)
				_, _ = lsp.Serve(context.Background(), srvIn, srvOut, lsp.Options{Provider: provider.DefaultConfig("openai")})
				srvOut.Close()
			}()
			defer func() {
				toSrv.Close()
				fromSrv.Close()
				<-done
			}()
			go func() { _, _ = io.WriteString(toSrv, tc.input+init) }()
			r := bufio.NewReader(fromSrv)
			type result struct {
				msgs []rawResponse
				err  error
			}
			got := make(chan result, 1)
			go func() {
				var msgs []rawResponse
				for {
					m, err := readFrame(r)
					if err != nil {
						got <- result{msgs, err}
						return
					}
					msgs = append(msgs, m)
					if string(m.ID) == "7" {
						got <- result{msgs, nil}
						return
					}
				}
			}()
			res := await.Event(t, got, "the answer to the initialize after the malformed input")
			if res.err != nil {
				t.Fatalf("reading answers: %v (got %+v)", res.err, res.msgs)
			}
			if len(res.msgs) < 2 {
				t.Fatalf("answers = %+v, want an error then initialize's result", res.msgs)
			}
			first, last := res.msgs[0], res.msgs[len(res.msgs)-1]
			if first.Error == nil || first.Error.Code != tc.wantCode || string(first.ID) != tc.wantID {
				t.Errorf("first answer = id %s error %+v, want id %s code %d", first.ID, first.Error, tc.wantID, tc.wantCode)
			}
			if last.Error != nil || !bytes.Contains(last.Result, []byte(`"agent-lsp"`)) {
				t.Errorf("initialize answer = %+v", last)
			}
		})
	}
}

// FuzzFrames feeds arbitrary bytes: the daemon must not panic, must stop
// at the end of the input, and must write only well-formed frames.
func FuzzFrames(f *testing.F) {
	f.Add([]byte(frame(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`)))
	f.Add([]byte("Content-Length: 5\r\n\r\n{}{}{"))
	f.Add([]byte("Content-Length: 3\r\n\r\n[1]Content-Length: 2\r\n\r\n{}"))
	f.Add([]byte(frame(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`) +
		frame(`{"jsonrpc":"2.0","id":2,"method":"agent/prompt","params":{"prompt":5}}`) +
		frame(`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":{}}}`) +
		frame(`{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///x"},"contentChanges":[{"range":{"start":{"line":99,"character":99999},"end":{"line":0,"character":0}},"text":"🎉"}]}}`)))
	f.Fuzz(func(t *testing.T, input []byte) {
		var out bytes.Buffer
		done := make(chan struct{})
		go func() {
			defer close(done)
			_, _ = lsp.Serve(context.Background(), bytes.NewReader(input), &out, lsp.Options{Provider: provider.DefaultConfig("openai")})
		}()
		await.Event(t, done, "Serve to return at the end of the input")
		r := bufio.NewReader(&out)
		for {
			_, err := readFrame(r)
			if err == io.EOF {
				return
			}
			if err != nil {
				t.Fatalf("the daemon wrote a malformed frame: %v\n%q", err, out.String())
			}
		}
	})
}

package lsptest

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agent-lsp/agent-lsp/mcp/demo"
)

// Where a hostile repository would send what it steals: listeners on
// loopback that count every connection (so "nothing was sent" includes
// "nothing connected") and keep what arrived.

// TCPSink is a loopback TCP listener keeping what each connection sent
// before it closed (a stdio server's environment, say).
type TCPSink struct {
	Addr string // host:port to send to
	ln   net.Listener
	mu   sync.Mutex
	n    int
	got  []string
	next chan string
}

// NewTCPSink listens on 127.0.0.1 until the test ends.
func NewTCPSink(t testing.TB) *TCPSink {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &TCPSink{Addr: ln.Addr().String(), ln: ln, next: make(chan string, 64)}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return // closed at cleanup
			}
			s.mu.Lock()
			s.n++
			s.mu.Unlock()
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer c.Close()
				_ = c.SetReadDeadline(time.Now().Add(30 * time.Second))
				data, _ := io.ReadAll(c) // the sender closes when done
				s.mu.Lock()
				s.got = append(s.got, string(data))
				s.mu.Unlock()
				select {
				case s.next <- string(data):
				default: // nobody waits for it
				}
			}()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		wg.Wait()
	})
	return s
}

// Connections is how many connections arrived so far.
func (s *TCPSink) Connections() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.n
}

// Received is what every finished connection sent, in order.
func (s *TCPSink) Received() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.got...)
}

// Next waits for the next connection to finish sending and returns it.
func (s *TCPSink) Next(t testing.TB, within time.Duration) string {
	t.Helper()
	select {
	case got := <-s.next:
		return got
	case <-time.After(within):
		t.Fatalf("nothing arrived at %s within %s", s.Addr, within)
	}
	return ""
}

// MCPHTTPSink is the demo MCP server over Streamable HTTP, keeping the
// Authorization header of every request: where a hostile http entry sends
// a token.
type MCPHTTPSink struct {
	URL     string
	srv     *httptest.Server
	mu      sync.Mutex
	conns   int
	headers []string
}

// NewMCPHTTPSink serves until the test ends.
func NewMCPHTTPSink(t testing.TB) *MCPHTTPSink {
	t.Helper()
	h := &MCPHTTPSink{}
	handler := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return demo.NewServer(nil) }, nil)
	h.srv = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.mu.Lock()
		h.headers = append(h.headers, r.Header.Get("Authorization"))
		h.mu.Unlock()
		handler.ServeHTTP(w, r)
	}))
	h.srv.Config.ConnState = func(_ net.Conn, st http.ConnState) {
		if st == http.StateNew {
			h.mu.Lock()
			h.conns++
			h.mu.Unlock()
		}
	}
	h.srv.Start()
	h.URL = h.srv.URL
	t.Cleanup(h.srv.Close)
	return h
}

// Seen is how many connections arrived and every Authorization header.
func (h *MCPHTTPSink) Seen() (conns int, authorization []string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.conns, append([]string(nil), h.headers...)
}

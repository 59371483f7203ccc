package provider

import (
	"context"
	"net"
	"net/http"
	"sync"
	"testing"
)

// pipeServer serves handle over in-memory connections (net.Pipe) and
// returns a client for it and its base URL. Inside a synctest bubble the
// client, the server and every timer between them run on the bubble's
// clock, which moves only when all of them wait: a test then sees how
// long something waits on timers, not how loaded the machine is. Call it
// inside the bubble; the cleanup closes both ends there.
func pipeServer(t *testing.T, handle http.HandlerFunc) (*http.Client, string) {
	t.Helper()
	l := &pipeListener{conns: make(chan net.Conn), done: make(chan struct{})}
	srv := &http.Server{Handler: handle}
	served := make(chan struct{})
	go func() { // ends when Close closes the listener
		defer close(served)
		_ = srv.Serve(l)
	}()
	transport := &http.Transport{DialContext: l.dial}
	t.Cleanup(func() {
		_ = srv.Close()
		transport.CloseIdleConnections()
		<-served
	})
	return &http.Client{Transport: transport}, "http://pipe"
}

// pipeListener hands the server the far end of each pipe a client dials.
type pipeListener struct {
	conns chan net.Conn
	done  chan struct{}
	once  sync.Once
}

func (l *pipeListener) dial(ctx context.Context, _, _ string) (net.Conn, error) {
	client, server := net.Pipe()
	select {
	case l.conns <- server:
		return client, nil
	case <-l.done:
		return nil, net.ErrClosed
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (l *pipeListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

func (l *pipeListener) Close() error {
	l.once.Do(func() { close(l.done) })
	return nil
}

func (l *pipeListener) Addr() net.Addr { return pipeAddr{} }

type pipeAddr struct{}

func (pipeAddr) Network() string { return "pipe" }
func (pipeAddr) String() string  { return "pipe" }

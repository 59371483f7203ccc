package sandbox

import (
	"context"
	"io"
	"net"
	"strconv"
	"sync"
)

// forwardHostPort serves the listener the launcher opened on 127.0.0.1:port
// in the command's network namespace: each connection is joined to the
// host's 127.0.0.1:port (sandbox.hostPorts), until ctx ends (the command
// is gone, or the Sandbox closes); then every connection is closed.
func forwardHostPort(ctx context.Context, ln net.Listener, port int) {
	stop := context.AfterFunc(ctx, func() { _ = ln.Close() })
	defer stop()
	defer ln.Close()
	var conns sync.WaitGroup
	defer conns.Wait()
	for {
		in, err := ln.Accept()
		if err != nil {
			return // closed: ctx ended
		}
		conns.Add(1)
		go func() {
			defer conns.Done()
			joinHostPort(ctx, in, port)
		}()
	}
}

// joinHostPort copies between in (a command's connection) and a new
// connection to the host's 127.0.0.1:port, until both directions end or
// ctx does. A host port with no listener closes in at once: the command
// reads the end of the stream, as from a server that went away.
func joinHostPort(ctx context.Context, in net.Conn, port int) {
	defer in.Close()
	var d net.Dialer
	out, err := d.DialContext(ctx, "tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		return
	}
	defer out.Close()
	stop := context.AfterFunc(ctx, func() {
		_ = in.Close()
		_ = out.Close()
	})
	defer stop()
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = io.Copy(out, in)
		closeWrite(out)
	}()
	_, _ = io.Copy(in, out)
	closeWrite(in)
	<-done
}

// closeWrite passes one direction's end on, keeping the other open.
func closeWrite(c net.Conn) {
	if tc, ok := c.(*net.TCPConn); ok {
		_ = tc.CloseWrite()
	}
}

package sandbox

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"testing"

	"github.com/agent-lsp/agent-lsp/tools/procenv"
)

// envLoopbackHelper makes the test binary, started inside the sandbox,
// open a TCP server on 127.0.0.1 and talk to it (no interpreter needed).
const envLoopbackHelper = "AGENT_LSP_SANDBOX_TEST_LOOPBACK"

// envProtectHelper makes the test process non-dumpable first, as
// cmd/agent-lsp makes the daemon (procenv.Protect).
const envProtectHelper = "AGENT_LSP_SANDBOX_TEST_PROTECT"

// helperMain is set by a system's tests that start the test binary as a
// helper of their own (sockets_helper_linux_test.go: the socket dialer).
var helperMain func()

// TestMain lets the test binary be the sandbox launcher (Command starts
// /proc/self/exe with the launcher argument) and the loopback helper.
func TestMain(m *testing.M) {
	Main()
	if len(os.Args) > 1 && os.Args[1] == AttachArg { // the stub of handoff_linux_test.go
		os.Exit(RunAttached(context.Background(), os.Args[2:], os.Getenv(AttachTokenEnv), os.Stdout, os.Stderr))
	}
	if os.Getenv(envProtectHelper) == "1" {
		os.Unsetenv(envProtectHelper) // not for the helpers it starts
		// As the daemon does at start: non-dumpable, which is what kept
		// an ordinary user's namespaces from engaging.
		if err := procenv.Protect(); err != nil {
			fmt.Println("procenv.Protect:", err)
			os.Exit(1)
		}
	}
	if helperMain != nil {
		helperMain() // exits when the test binary was started as a helper
	}
	if os.Getenv(envLoopbackHelper) == "1" {
		if err := loopbackRoundTrip(); err != nil {
			fmt.Println("loopback failed:", err)
			os.Exit(1)
		}
		fmt.Println("loopback ok")
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// loopbackRoundTrip serves one connection on 127.0.0.1 and reads back
// what it sent.
func loopbackRoundTrip() error {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	defer ln.Close()
	errc := make(chan error, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			errc <- err
			return
		}
		defer c.Close()
		_, err = c.Write([]byte("ping"))
		errc <- err
	}()
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		return err
	}
	defer c.Close()
	b, err := io.ReadAll(c)
	if err != nil {
		return err
	}
	if string(b) != "ping" {
		return fmt.Errorf("read %q", b)
	}
	return <-errc
}

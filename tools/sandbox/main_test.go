package sandbox

import (
	"fmt"
	"io"
	"net"
	"os"
	"testing"
)

// envLoopbackHelper makes the test binary, started inside the sandbox,
// open a TCP server on 127.0.0.1 and talk to it (no interpreter needed).
const envLoopbackHelper = "AGENT_LSP_SANDBOX_TEST_LOOPBACK"

// TestMain lets the test binary be the sandbox launcher (Command starts
// /proc/self/exe with the launcher argument) and the loopback helper.
func TestMain(m *testing.M) {
	Main()
	if target := os.Getenv(envDialHelper); target != "" {
		os.Exit(dialHelper(target))
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

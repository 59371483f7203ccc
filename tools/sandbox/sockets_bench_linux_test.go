package sandbox

import (
	"fmt"
	"net"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// BenchmarkConnect measures what the socket supervision costs one TCP
// connect: a command connects n times to a server of its own on
// 127.0.0.1 (socket, connect, close, timed inside the command), plain and
// in the sandbox, where each connect is a round trip to the daemon's
// supervisor. The difference of the per-connect times is the overhead.
func BenchmarkConnect(b *testing.B) {
	ws := b.TempDir()
	const n = 2000
	for _, c := range []struct {
		name string
		st   Settings
	}{
		{"plain", Settings{ForceUnavailable: true}},
		{"sandboxed", Settings{}},
	} {
		b.Run(c.name, func(b *testing.B) {
			s, err := New(c.st, []string{ws})
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			var total time.Duration
			runs := 0
			for b.Loop() {
				cmd, release, err := s.Command(envDialHelper+"=bench-connect:"+strconv.Itoa(n)+" "+testBinary(), ws, os.Environ())
				if err != nil {
					b.Fatal(err)
				}
				out, err := cmd.CombinedOutput()
				release()
				if err != nil {
					b.Fatalf("%v: %s", err, out)
				}
				ns, err := strconv.ParseInt(strings.TrimSpace(strings.TrimPrefix(string(out), "ns-per-connect:")), 10, 64)
				if err != nil {
					b.Fatalf("output %q", out)
				}
				total += time.Duration(ns)
				runs++
			}
			b.ReportMetric(float64(total.Microseconds())/float64(runs), "µs/connect")
		})
	}
}

// signalledConnects makes n blocking connects to its own listener on
// 127.0.0.1 while another thread signals this process without pause (a
// handled signal: the interrupted call restarts, as after the Go
// runtime's own preemption signal). Every connect must succeed once: a
// connect the supervisor made that the signal then restarted fails with
// EISCONN.
func signalledConnects(arg string) int {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGUSR1)
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		for {
			select {
			case <-stop:
				return
			case <-sigs:
			default:
				_ = syscall.Kill(os.Getpid(), syscall.SIGUSR1)
			}
		}
	}()
	return benchConnect(arg)
}

// benchConnect is the helper's side: n blocking connects to its own
// listener on 127.0.0.1, the mean time of one printed in ns.
func benchConnect(arg string) int {
	n, err := strconv.Atoi(arg)
	if err != nil {
		fmt.Println(err)
		return 1
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Println(err)
		return 1
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			_ = c.Close()
		}
	}()
	addr := &unix.SockaddrInet4{Port: ln.Addr().(*net.TCPAddr).Port, Addr: [4]byte{127, 0, 0, 1}}
	start := time.Now()
	for range n {
		fd, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
		if err != nil {
			fmt.Println(err)
			return 1
		}
		if err := unix.Connect(fd, addr); err != nil {
			fmt.Println(err)
			return 1
		}
		_ = unix.Close(fd)
	}
	fmt.Printf("ns-per-connect:%d\n", time.Since(start).Nanoseconds()/int64(n))
	return 0
}

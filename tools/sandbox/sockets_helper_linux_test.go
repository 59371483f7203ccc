package sandbox

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// envDialHelper makes the test binary, started inside the sandbox, a
// client: it connects to the target ("unix:/path", "unix:@abstract",
// "unixgram:/path", "tcp:127.0.0.1:port", "io_uring" to try setting up
// an io_uring, or "self:" and one of the others to serve the address
// itself first) and prints the server's greeting or why it could not.
const envDialHelper = "AGENT_LSP_SANDBOX_TEST_DIAL"

func init() {
	helperMain = func() {
		if target := os.Getenv(envDialHelper); target != "" {
			os.Exit(dialHelper(target))
		}
	}
}

// The call is made from a thread that does not lead its thread group (the
// main goroutine holds the main thread), as a multi-threaded client's
// would be: the supervisor must find that thread's socket.
func dialHelper(target string) int {
	runtime.LockOSThread()
	code := make(chan int)
	go func() { code <- dial(target) }()
	return <-code
}

func dial(target string) int {
	if n, ok := strings.CutPrefix(target, "bench-connect:"); ok {
		return benchConnect(n)
	}
	if strings.HasPrefix(target, "race-") {
		return raceConnects(target)
	}
	if n, ok := strings.CutPrefix(target, "signalled-connects:"); ok {
		return signalledConnects(n)
	}
	if port, ok := strings.CutPrefix(target, "fastopen:"); ok {
		return fastOpen(port)
	}
	if port, ok := strings.CutPrefix(target, "blocking-tcp:"); ok {
		return blockingConnect(port)
	}
	if target == "io_uring" {
		params := make([]byte, 120) // struct io_uring_params
		fd, _, errno := unix.Syscall(unix.SYS_IO_URING_SETUP, 1, uintptr(unsafe.Pointer(&params[0])), 0)
		if errno != 0 {
			fmt.Println("io_uring failed:", errno)
			return 1
		}
		unix.Close(int(fd))
		fmt.Println("io_uring ok")
		return 0
	}
	self := strings.HasPrefix(target, "self:")
	network, addr, _ := strings.Cut(strings.TrimPrefix(target, "self:"), ":")
	if self {
		ln, err := net.Listen(network, addr)
		if err != nil {
			fmt.Println("listen failed:", err)
			return 1
		}
		defer ln.Close()
		go func() {
			if c, err := ln.Accept(); err == nil {
				_, _ = fmt.Fprintln(c, "hello from the command itself")
				_ = c.Close()
			}
		}()
	}
	c, err := net.DialTimeout(network, addr, 5*time.Second)
	if err != nil {
		fmt.Println("dial failed:", err)
		return 1
	}
	defer c.Close()
	if network == "unixgram" {
		if _, err := c.Write([]byte("log line\n")); err != nil {
			fmt.Println("dial failed:", err)
			return 1
		}
		fmt.Println("dial ok: sent")
		return 0
	}
	_ = c.SetDeadline(time.Now().Add(5 * time.Second))
	line, err := bufio.NewReader(c).ReadString('\n')
	if err != nil {
		fmt.Println("dial failed: reading:", err)
		return 1
	}
	fmt.Println("dial ok:", strings.TrimSpace(line))
	return 0
}

// blockingConnect makes one blocking TCP connect to 127.0.0.1:port and
// says when it returns.
func blockingConnect(port string) int {
	p, err := strconv.Atoi(port)
	if err != nil {
		fmt.Println(err)
		return 1
	}
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM, 0)
	if err != nil {
		fmt.Println(err)
		return 1
	}
	fmt.Println("connecting")
	err = unix.Connect(fd, &unix.SockaddrInet4{Port: p, Addr: [4]byte{127, 0, 0, 1}})
	fmt.Println("connect returned:", err)
	return 1
}

// fastOpen connects to 127.0.0.1:port the TCP Fast Open way: sendto
// with MSG_FASTOPEN and the address, a connect without connect().
func fastOpen(port string) int {
	p, err := strconv.Atoi(port)
	if err != nil {
		fmt.Println(err)
		return 1
	}
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM, 0)
	if err != nil {
		fmt.Println(err)
		return 1
	}
	if err := unix.Sendto(fd, []byte("x"), unix.MSG_FASTOPEN, &unix.SockaddrInet4{Port: p, Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		fmt.Println("dial failed: fast open:", err)
		return 1
	}
	buf := make([]byte, 64)
	n, err := unix.Read(fd, buf)
	if err != nil {
		fmt.Println("dial failed: reading:", err)
		return 1
	}
	fmt.Println("dial ok:", strings.TrimSpace(string(buf[:n])))
	return 0
}

// fullListener listens on 127.0.0.1 with an accept queue that is full and
// never accepted from: the kernel drops a new connection's SYN, so a
// blocking connect to it waits, retrying, for minutes. It returns the port.
func fullListener(t *testing.T) int {
	t.Helper()
	ln, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = unix.Close(ln) })
	if err := unix.Bind(ln, &unix.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		t.Fatal(err)
	}
	if err := unix.Listen(ln, 0); err != nil {
		t.Fatal(err)
	}
	sa, err := unix.Getsockname(ln)
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		fd, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM|unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC, 0)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = unix.Close(fd) })
		_ = unix.Connect(fd, sa) // EINPROGRESS: it sits in the queue
	}
	return sa.(*unix.SockaddrInet4).Port
}

// hostServer is a listener outside the sandbox that greets each
// connection and counts them: an editor's RPC socket, an ssh agent, a
// database on the host's loopback.
type hostServer struct {
	name string
	ln   net.Listener
	pc   net.PacketConn
	wg   sync.WaitGroup
	mu   sync.Mutex
	hits int
}

func listenHost(t *testing.T, network, addr, name string) *hostServer {
	t.Helper()
	h := &hostServer{name: name}
	if network == "unixgram" {
		pc, err := net.ListenPacket(network, addr)
		if err != nil {
			t.Fatal(err)
		}
		h.pc = pc
		h.wg.Add(1)
		go func() {
			defer h.wg.Done()
			buf := make([]byte, 512)
			for {
				if _, _, err := pc.ReadFrom(buf); err != nil {
					return
				}
				h.hit()
			}
		}()
	} else {
		ln, err := net.Listen(network, addr)
		if err != nil {
			t.Fatal(err)
		}
		h.ln = ln
		h.wg.Add(1)
		go func() {
			defer h.wg.Done()
			for {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				h.hit()
				_, _ = fmt.Fprintf(c, "hello from %s\n", name)
				_ = c.Close()
			}
		}()
	}
	t.Cleanup(func() {
		if h.ln != nil {
			_ = h.ln.Close()
		} else {
			_ = h.pc.Close()
		}
		h.wg.Wait()
	})
	return h
}

func (h *hostServer) hit() {
	h.mu.Lock()
	h.hits++
	h.mu.Unlock()
}

func (h *hostServer) connections() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.hits
}

// port is the TCP server's port.
func (h *hostServer) port() int { return h.ln.Addr().(*net.TCPAddr).Port }

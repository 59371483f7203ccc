package sandbox

import (
	"bufio"
	"fmt"
	"net"
	"runtime"
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

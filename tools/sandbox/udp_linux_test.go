package sandbox

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// envUDPTarget makes TestSandboxUDPInner run: the address a sandboxed
// command sends a UDP packet to, from inside the test's own network
// namespace.
const envUDPTarget = "AGENT_LSP_SANDBOX_TEST_UDP_TARGET"

// TestSandboxUDPStaysOnTheMachine: a UDP packet a sandboxed command sends
// to a non-loopback address is not sent. The test makes its own two
// network namespaces joined by a veth pair ("out", where the sandbox
// runs, and "peer", 10.231.<pid>.2, where the test listens), so nothing
// leaves the machine either way; it runs the sandbox there as root and as
// nobody. A packet the sandbox would let through arrives: the control run
// with network allow proves the path works.
func TestSandboxUDPStaysOnTheMachine(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to make network namespaces (CI runs as root)")
	}
	ip, err := exec.LookPath("ip")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("ip (iproute2) not installed")
		}
		t.Skip("ip (iproute2) not installed")
	}
	suffix := strconv.Itoa(os.Getpid() % 100000)
	out, peer := "alsb-out-"+suffix, "alsb-peer-"+suffix
	subnet := fmt.Sprintf("10.231.%d", os.Getpid()%250+1)
	sh := func(args ...string) {
		t.Helper()
		if b, err := exec.Command(ip, args...).CombinedOutput(); err != nil {
			t.Fatalf("ip %s: %v\n%s", strings.Join(args, " "), err, b)
		}
	}
	for _, ns := range []string{out, peer} {
		sh("netns", "add", ns)
		t.Cleanup(func() { _ = exec.Command(ip, "netns", "del", ns).Run() })
	}
	sh("link", "add", "alsbo"+suffix, "netns", out, "type", "veth", "peer", "name", "alsbp"+suffix, "netns", peer)
	sh("-n", out, "addr", "add", subnet+".1/30", "dev", "alsbo"+suffix)
	sh("-n", peer, "addr", "add", subnet+".2/30", "dev", "alsbp"+suffix)
	for _, ns := range []string{out, peer} {
		sh("-n", ns, "link", "set", "lo", "up")
	}
	sh("-n", out, "link", "set", "alsbo"+suffix, "up")
	sh("-n", peer, "link", "set", "alsbp"+suffix, "up")

	conn := listenUDPIn(t, peer, subnet+".2:9999")
	bin := copyTestBinary(t)
	target := subnet + ".2:9999"

	inner := func(user, network, marker string) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		args := []string{"netns", "exec", out}
		if user == "nobody" {
			args = append(args, "setpriv", "--reuid=65534", "--regid=65534", "--clear-groups")
		}
		args = append(args, bin, "-test.run=^TestSandboxUDPInner$", "-test.count=1", "-test.v")
		cmd := exec.CommandContext(ctx, ip, args...)
		cmd.Dir = "/"
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=/nonexistent", "TMPDIR=/tmp", envProtectHelper + "=1",
			envUDPTarget + "=" + target, "AGENT_LSP_SANDBOX_TEST_NETWORK=" + network, "AGENT_LSP_SANDBOX_TEST_MARKER=" + marker}
		if b, err := cmd.CombinedOutput(); err != nil || !bytes.Contains(b, []byte("--- PASS: TestSandboxUDPInner")) {
			t.Fatalf("%s, network %s: %v\n%s", user, network, err, b)
		}
		// A control packet from the namespace itself, after the command
		// ended: once it is in, a packet sent before it would be too.
		ctl := exec.CommandContext(ctx, ip, "netns", "exec", out, "bash", "-c", "echo control-"+marker+" > /dev/udp/"+subnet+".2/9999")
		if b, err := ctl.CombinedOutput(); err != nil {
			t.Fatalf("control packet: %v\n%s", err, b)
		}
	}
	for _, user := range []string{"root", "nobody"} {
		allowMarker, localMarker := user+"-allow", user+"-local"
		inner(user, "allow", allowMarker)
		if got := readUntil(t, conn, "control-"+allowMarker); !strings.Contains(got, "sandboxed-"+allowMarker) {
			t.Fatalf("%s: with network allow the sandboxed packet did not arrive (the test's path is broken): %q", user, got)
		}
		inner(user, "local", localMarker)
		if got := readUntil(t, conn, "control-"+localMarker); strings.Contains(got, "sandboxed-"+localMarker) {
			t.Fatalf("%s: a sandboxed command's UDP packet left its network namespace under network local: %q", user, got)
		}
	}
}

// TestSandboxUDPInner sends one UDP packet from a sandboxed command (run
// by TestSandboxUDPStaysOnTheMachine inside its namespace).
func TestSandboxUDPInner(t *testing.T) {
	target := os.Getenv(envUDPTarget)
	if target == "" {
		t.Skip("run by TestSandboxUDPStaysOnTheMachine")
	}
	host, port, _ := strings.Cut(target, ":")
	f := newFixture(t)
	s := newSandbox(t, f, Settings{Network: Network(os.Getenv("AGENT_LSP_SANDBOX_TEST_NETWORK"))})
	if !s.Status().Namespaces {
		t.Fatalf("namespaces expected: %s", s.Status().Summary())
	}
	out, code, _ := run(t, s, f, "echo sandboxed-"+os.Getenv("AGENT_LSP_SANDBOX_TEST_MARKER")+" > /dev/udp/"+host+"/"+port)
	t.Logf("exit %d: %s", code, out)
}

// listenUDPIn opens a UDP socket in the named network namespace (a
// socket stays in the namespace it was made in; the thread that made it
// is left locked, so the runtime discards it).
func listenUDPIn(t *testing.T, ns, addr string) net.PacketConn {
	t.Helper()
	type result struct {
		conn net.PacketConn
		err  error
	}
	ch := make(chan result, 1)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread ends with the goroutine
		f, err := os.Open(filepath.Join("/run/netns", ns))
		if err != nil {
			ch <- result{err: err}
			return
		}
		defer f.Close()
		if err := unix.Setns(int(f.Fd()), unix.CLONE_NEWNET); err != nil {
			ch <- result{err: err}
			return
		}
		c, err := net.ListenPacket("udp4", addr)
		ch <- result{c, err}
	}()
	r := <-ch
	if r.err != nil {
		t.Fatalf("listening in %s: %v", ns, r.err)
	}
	t.Cleanup(func() { r.conn.Close() })
	return r.conn
}

// readUntil reads packets until one holds marker and returns them all.
func readUntil(t *testing.T, conn net.PacketConn, marker string) string {
	t.Helper()
	var got strings.Builder
	buf := make([]byte, 2048)
	_ = conn.SetReadDeadline(time.Now().Add(30 * time.Second)) // a bound for a broken setup, not a wait
	for {
		n, _, err := conn.ReadFrom(buf)
		if err != nil {
			t.Fatalf("waiting for %q: %v (got %q)", marker, err, got.String())
		}
		got.Write(buf[:n])
		if bytes.Contains(buf[:n], []byte(marker)) {
			return got.String()
		}
	}
}

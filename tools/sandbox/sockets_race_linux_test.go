package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// TestSocketRacesStayInside: a command that races the check cannot reach
// a socket outside. One thread flips a symlink in the workspace between a
// directory inside and one outside (each holding a socket of the same
// name) while another connects through it; then one thread rewrites the
// sockaddr being connected between the inside and the outside path. The
// connects that land must all land inside: the outside listener sees
// none. (A supervisor that checked and then let the kernel connect, or
// that resolved the path twice, would lose some of these races.)
func TestSocketRacesStayInside(t *testing.T) {
	f := newFixture(t)
	inside := filepath.Join(f.ws, "in")
	outside := filepath.Join(f.outside, "run")
	for _, d := range []string{inside, outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	in := listenHost(t, "unix", filepath.Join(inside, "s.sock"), "inside")
	out := listenHost(t, "unix", filepath.Join(outside, "s.sock"), "outside")
	s := newSandbox(t, f, Settings{})
	for _, race := range []string{"symlink", "sockaddr"} {
		t.Run(race, func(t *testing.T) {
			target := strings.Join([]string{"race-" + race, f.ws, inside, outside, "2000"}, ":")
			o, code, _ := run(t, s, f, envDialHelper+"="+target+" "+testBinary())
			if got := out.connections(); got != 0 {
				t.Fatalf("%d connections reached the socket outside (output %q)", got, o)
			}
			if code != 0 || in.connections() == 0 {
				t.Fatalf("exit %d, output %q, %d connections inside: want the race to have run", code, o, in.connections())
			}
			t.Log(strings.TrimSpace(o))
		})
	}
}

// raceConnects is the helper's side of TestSocketRacesStayInside:
// "race-symlink:ws:inside:outside:n" or "race-sockaddr:ws:inside:outside:n".
func raceConnects(arg string) int {
	parts := strings.Split(arg, ":")
	if len(parts) != 5 {
		fmt.Println("bad race", arg)
		return 1
	}
	kind, ws, inside, outside := parts[0], parts[1], parts[2], parts[3]
	n, _ := strconv.Atoi(parts[4])
	var stop atomic.Bool
	done := make(chan struct{})
	var sa unix.RawSockaddrUnix
	sa.Family = unix.AF_UNIX
	setPath := func(p string) {
		for i := range sa.Path {
			sa.Path[i] = 0
		}
		for i := range len(p) {
			sa.Path[i] = int8(p[i])
		}
	}
	link := filepath.Join(ws, "flip")
	switch kind {
	case "race-symlink":
		setPath(filepath.Join(link, "s.sock"))
		go func() {
			defer close(done)
			tmp := link + ".tmp"
			for i := 0; !stop.Load(); i++ {
				dir := inside
				if i%2 == 1 {
					dir = outside
				}
				_ = os.Remove(tmp)
				if os.Symlink(dir, tmp) == nil {
					_ = os.Rename(tmp, link)
				}
			}
		}()
	case "race-sockaddr":
		inPath, outPath := filepath.Join(inside, "s.sock"), filepath.Join(outside, "s.sock")
		setPath(inPath)
		go func() {
			defer close(done)
			for i := 0; !stop.Load(); i++ {
				p := inPath
				if i%2 == 1 {
					p = outPath
				}
				// Byte by byte, racing the reader on purpose.
				for j := range len(p) {
					*(*int8)(unsafe.Pointer(&sa.Path[j])) = int8(p[j])
				}
				*(*int8)(unsafe.Pointer(&sa.Path[len(p)])) = 0
			}
		}()
	default:
		fmt.Println("bad race", kind)
		return 1
	}
	ok, refused := 0, 0
	for range n {
		fd, err := unix.Socket(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
		if err != nil {
			fmt.Println(err)
			return 1
		}
		_, _, errno := unix.Syscall(unix.SYS_CONNECT, uintptr(fd), uintptr(unsafe.Pointer(&sa)), unsafe.Sizeof(sa))
		if errno == 0 {
			ok++
		} else {
			refused++
		}
		_ = unix.Close(fd)
	}
	stop.Store(true)
	<-done
	fmt.Printf("%d connected, %d refused\n", ok, refused)
	return 0
}

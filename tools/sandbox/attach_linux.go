package sandbox

import (
	"bytes"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// handshakeWait bounds how long one connection to the attach socket may
// take to present its token.
const handshakeWait = 5 * time.Second

// Attachment is the daemon's side of one handoff: a unix socket in a
// fresh 0700 directory, a random single-use token, and one goroutine that
// serves the stub: it checks the token, sends the handoff, then reads what
// the stub reports (started, exit). Close ends it all.
type Attachment struct {
	h       *Handoff
	dir     string
	sock    string
	token   string
	ln      *net.UnixListener
	started chan struct{} // closed once the stub has started the command
	done    chan struct{} // closed when the serving goroutine has ended
	stop    chan struct{} // closed by Close

	mu   sync.Mutex
	conn *net.UnixConn // the authenticated stub, once there is one
	peer int           // the stub's pid
	pgid int           // the command's process group, once started (0: not known to be the stub's)
	// handedOff: the stub has the command (it will start it); abandoned:
	// the caller gave up on the stub before that (it never will).
	handedOff, abandoned bool
	exit                 Exit
	once                 sync.Once
}

// Attach opens the socket a stub will connect to for h, and takes h over
// (Close releases its ruleset). The socket's directory is a fresh 0700
// one under the daemon's temp dir, outside the sandbox's private temp dir,
// which commands may write.
func Attach(h *Handoff) (*Attachment, error) {
	if selfPathErr != nil {
		_ = h.Close()
		return nil, fmt.Errorf("sandbox handoff: this binary's path: %w", selfPathErr)
	}
	token := make([]byte, 32)
	if _, err := rand.Read(token); err != nil {
		_ = h.Close()
		return nil, err
	}
	dir, err := os.MkdirTemp("", "agent-lsp-attach-")
	if err != nil {
		_ = h.Close()
		return nil, fmt.Errorf("sandbox handoff: %w", err)
	}
	a := &Attachment{h: h, dir: dir, sock: filepath.Join(dir, "s"), token: hex.EncodeToString(token),
		started: make(chan struct{}), done: make(chan struct{}), stop: make(chan struct{})}
	if err := os.Chmod(dir, 0o700); err == nil {
		a.ln, err = net.ListenUnix("unix", &net.UnixAddr{Name: a.sock, Net: "unix"})
	}
	if err != nil {
		_ = os.RemoveAll(dir)
		_ = h.Close()
		return nil, fmt.Errorf("sandbox handoff: %w", err)
	}
	a.ln.SetUnlinkOnClose(true)
	go a.serve()
	return a, nil
}

// Program and Args are what the client runs: this binary as the stub.
func (a *Attachment) Program() string { return selfPath }

// Args are the stub's arguments: the socket and this process's id (the
// stub checks that the socket's other end is this process).
func (a *Attachment) Args() []string {
	return []string{AttachArg, a.sock, strconv.Itoa(os.Getpid())}
}

// Env is the variable the stub's environment must hold: the token.
func (a *Attachment) Env() (name, value string) { return AttachTokenEnv, a.token }

// Sandboxed reports whether the command runs inside the sandbox.
func (a *Attachment) Sandboxed() bool { return a.h.sandboxed }

// Started is closed once the stub has started the command.
func (a *Attachment) Started() <-chan struct{} { return a.started }

// Done is closed once the stub's connection has ended.
func (a *Attachment) Done() <-chan struct{} { return a.done }

// Exit is what the stub reported at the end (after Done).
func (a *Attachment) Exit() Exit {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.exit
}

// Abandon gives up on the stub unless it already has the command: true
// means no stub will ever run it (the caller may run it elsewhere); false
// means one is starting it (wait for Started, or Done if it fails).
func (a *Attachment) Abandon() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.handedOff {
		return false
	}
	a.abandoned = true
	_ = a.ln.Close()
	if a.conn != nil {
		_ = a.conn.Close() // one still presenting its token
	}
	return true
}

// Settle is for a stub known to be gone (its terminal ended): it stops
// accepting and returns once every report the stub sent has been read.
func (a *Attachment) Settle() {
	a.Abandon()
	<-a.done
}

// Close stops waiting for a stub, or drops the one connected, which then
// kills the command; a command whose stub died without reporting its end
// has its process group killed here. It removes the socket's directory
// and returns once the serving goroutine has ended.
func (a *Attachment) Close() error {
	a.once.Do(func() {
		close(a.stop)
		_ = a.ln.Close()
		a.mu.Lock()
		if a.conn != nil {
			_ = a.conn.Close()
		}
		a.mu.Unlock()
	})
	<-a.done
	a.mu.Lock()
	pgid, reported := a.pgid, a.exit.Reported
	a.mu.Unlock()
	if pgid > 0 && !reported {
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
	}
	return errors.Join(os.RemoveAll(a.dir), a.h.Close())
}

// serve accepts connections until one presents the token, hands the
// command to it and reads its reports until it hangs up.
func (a *Attachment) serve() {
	defer close(a.done)
	var c *net.UnixConn
	for c == nil {
		conn, err := a.ln.AcceptUnix()
		if err != nil {
			return // closed
		}
		if !a.track(conn) {
			return
		}
		if err := a.authenticate(conn); err != nil {
			_ = conn.Close()
			continue
		}
		c = conn
	}
	_ = a.ln.Close() // single use: nobody else may attach
	a.mu.Lock()
	if a.abandoned {
		a.mu.Unlock()
		_ = c.Close()
		return
	}
	a.handedOff = true
	a.mu.Unlock()
	if err := a.h.send(c); err != nil {
		_ = c.Close()
		return
	}
	_ = a.h.Close() // the stub has its own copy now
	dec := json.NewDecoder(c)
	for {
		var r stubReport
		if err := dec.Decode(&r); err != nil {
			return
		}
		a.mu.Lock()
		switch {
		case r.Started && !isClosed(a.started):
			// Close kills this group if the stub dies without a word:
			// only when it is the stub's own child, as it says.
			if r.PGID > 1 && parentOf(r.PGID) == a.peer {
				a.pgid = r.PGID
			}
			close(a.started)
		case r.Exit != nil:
			a.exit = *r.Exit
			a.exit.Reported = true
		case r.Error != "":
			a.exit = Exit{Reported: true, Code: -1, Err: r.Error}
		}
		a.mu.Unlock()
	}
}

// track makes c the connection Close hangs up; false when Close or
// Abandon has already run (c is then closed).
func (a *Attachment) track(c *net.UnixConn) bool {
	a.mu.Lock()
	if a.abandoned {
		a.mu.Unlock()
		_ = c.Close()
		return false
	}
	a.conn = c
	a.mu.Unlock()
	select {
	case <-a.stop: // Close ran before it could see c
		_ = c.Close()
		return false
	default:
		return true
	}
}

// authenticate checks that the peer is this user and presents the token.
func (a *Attachment) authenticate(c *net.UnixConn) error {
	cred, err := peerCred(c)
	if err != nil {
		return err
	}
	if int(cred.Uid) != os.Getuid() {
		return fmt.Errorf("attach from uid %d refused", cred.Uid)
	}
	a.mu.Lock()
	a.peer = int(cred.Pid)
	a.mu.Unlock()
	_ = c.SetReadDeadline(time.Now().Add(handshakeWait))
	got := make([]byte, len(a.token)+1)
	if _, err := io.ReadFull(c, got); err != nil {
		return err
	}
	_ = c.SetReadDeadline(time.Time{})
	if subtle.ConstantTimeCompare(got, []byte(a.token+"\n")) != 1 {
		return errors.New("wrong token")
	}
	return nil
}

// parentOf is a process's parent pid, from /proc (0 when it is gone).
func parentOf(pid int) int {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	// pid (comm) state ppid ...: comm may hold spaces and parentheses.
	i := bytes.LastIndexByte(stat, ')')
	fields := strings.Fields(string(stat[i+1:]))
	if len(fields) < 2 {
		return 0
	}
	ppid, _ := strconv.Atoi(fields[1])
	return ppid
}

// isClosed reports whether ch is closed.
func isClosed(ch chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// peerCred is the process at the other end of c, as the kernel saw it
// connect.
func peerCred(c *net.UnixConn) (*unix.Ucred, error) {
	raw, err := c.SyscallConn()
	if err != nil {
		return nil, err
	}
	var cred *unix.Ucred
	var credErr error
	if err := raw.Control(func(fd uintptr) {
		cred, credErr = unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED)
	}); err != nil {
		return nil, err
	}
	return cred, credErr
}

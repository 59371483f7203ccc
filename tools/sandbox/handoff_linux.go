package sandbox

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"syscall"

	"golang.org/x/sys/unix"
)

// A command the ACP client runs in its own terminal is still started by
// this binary: the daemon prepares it (Handoff), waits on a unix socket
// (Attach) for the stub the client starts (`agent-lsp __sandbox-attach
// <socket> <pid>`, the token in its environment), and sends it the
// prepared command, the Landlock ruleset's descriptor included
// (SCM_RIGHTS). The stub drops the environment the client gave it and
// starts the launcher exactly as the daemon would (RunAttached), so the
// user watches the command live in their terminal and it is as contained
// as one the daemon runs itself.

// handoffMagic heads every handoff: a stub of another version refuses it.
const handoffMagic = "agent-lsp-handoff-v1"

// maxHandoff bounds the handoff a stub accepts (a command line and an
// environment).
const maxHandoff = 64 << 20

// selfPath is this binary as it was when the process started, for the
// client to run as the stub (the client's own /proc/self/exe is not us).
var selfPath, selfPathErr = os.Executable()

// Handoff is one command prepared for a stub to start: inside the sandbox
// (the daemon's policy and ruleset) or, when the sandbox is off or the
// user allowed it, outside, but with the same scrubbed environment.
type Handoff struct {
	p         prepared
	sandboxed bool
	shell     string // outside the sandbox: bash's absolute path
}

// Sandboxed reports whether the command runs inside the sandbox.
func (h *Handoff) Sandboxed() bool { return h.sandboxed }

// Close releases this process's copy of the ruleset (the daemon's once
// the stub has its own, the stub's once the launcher has started); a
// second Close does nothing. Not safe for concurrent use.
func (h *Handoff) Close() error {
	var err error
	if h.p.Ruleset != nil {
		err = h.p.Ruleset.Close()
		h.p.Ruleset = nil
	}
	if h.p.Channel != nil {
		_ = h.p.Channel.Close()
		h.p.Channel = nil
	}
	return err
}

// Handoff prepares `bash -c command` in dir with env (plus TMPDIR) for a
// stub: inside the sandbox when it is active, else as PlainHandoff.
func (s *Sandbox) Handoff(command, dir string, env []string) (*Handoff, error) {
	if !s.Status().Active { // waits for the check, as Command does
		return PlainHandoff(command, dir, env)
	}
	p, err := s.prepare(command, dir, env)
	if err != nil {
		return nil, err
	}
	return &Handoff{p: p, sandboxed: true}, nil
}

// PlainHandoff prepares `bash -c command` in dir with exactly env, outside
// any sandbox (the sandbox is off, or the user allowed this command out).
func PlainHandoff(command, dir string, env []string) (*Handoff, error) {
	shell, err := exec.LookPath("bash")
	if err != nil {
		return nil, fmt.Errorf("sandbox handoff: %w", err)
	}
	if shell, err = absPath(shell); err != nil {
		return nil, err
	}
	return &Handoff{p: prepared{Command: command, Dir: dir, Env: env}, shell: shell}, nil
}

// handoffWire is a handoff on the socket; the ruleset travels beside it.
type handoffWire struct {
	Magic      string   `json:"magic"`
	Command    string   `json:"command"`
	Dir        string   `json:"dir"`
	Env        []string `json:"env"`
	TmpDir     string   `json:"tmpDir,omitempty"`
	Policy     string   `json:"policy,omitempty"`
	Namespaces bool     `json:"namespaces,omitempty"`
	NewNet     bool     `json:"newNet,omitempty"`
	Gated      bool     `json:"gated,omitempty"`
	Channel    bool     `json:"channel,omitempty"` // the socket supervision's channel rides second, after the ruleset
	Sandboxed  bool     `json:"sandboxed"`
	Shell      string   `json:"shell,omitempty"`
}

// send writes h as a length-prefixed JSON message; the ruleset's
// descriptor rides on the length's bytes.
func (h *Handoff) send(c *net.UnixConn) error {
	body, err := json.Marshal(handoffWire{Magic: handoffMagic, Command: h.p.Command, Dir: h.p.Dir, Env: h.p.Env,
		TmpDir: h.p.TmpDir, Policy: h.p.Policy, Namespaces: h.p.Namespaces, NewNet: h.p.NewNet,
		Gated: h.p.Gated, Channel: h.p.Channel != nil, Sandboxed: h.sandboxed, Shell: h.shell})
	if err != nil {
		return err
	}
	head := binary.BigEndian.AppendUint32(nil, uint32(len(body)))
	var oob []byte
	if h.sandboxed {
		fds := []int{int(h.p.Ruleset.Fd())}
		if h.p.Channel != nil {
			fds = append(fds, int(h.p.Channel.Fd()))
		}
		oob = unix.UnixRights(fds...)
	}
	if _, _, err := c.WriteMsgUnix(head, oob, nil); err != nil {
		return fmt.Errorf("sending the handoff: %w", err)
	}
	if _, err := c.Write(body); err != nil {
		return fmt.Errorf("sending the handoff: %w", err)
	}
	return nil
}

// receiveHandoff reads what send wrote. A sandboxed handoff without its
// ruleset is refused: the stub never runs a command less confined than
// the daemon meant.
func receiveHandoff(c *net.UnixConn) (*Handoff, error) {
	head := make([]byte, 4)
	oob := make([]byte, unix.CmsgSpace(2*4))
	n, oobn, _, _, err := c.ReadMsgUnix(head, oob)
	if err != nil {
		return nil, fmt.Errorf("reading the handoff: %w", err)
	}
	var ruleset, channel *os.File
	if oobn > 0 {
		msgs, err := unix.ParseSocketControlMessage(oob[:oobn])
		if err != nil {
			return nil, fmt.Errorf("reading the handoff's descriptor: %w", err)
		}
		for _, m := range msgs {
			fds, err := unix.ParseUnixRights(&m)
			if err != nil {
				continue
			}
			for _, fd := range fds {
				switch {
				case ruleset == nil:
					ruleset = os.NewFile(uintptr(fd), "landlock-ruleset")
				case channel == nil:
					channel = os.NewFile(uintptr(fd), "sandbox-channel")
				default:
					_ = unix.Close(fd)
				}
			}
		}
	}
	fail := func(err error) (*Handoff, error) {
		if ruleset != nil {
			_ = ruleset.Close()
		}
		if channel != nil {
			_ = channel.Close()
		}
		return nil, err
	}
	if _, err := io.ReadFull(c, head[n:]); err != nil {
		return fail(fmt.Errorf("reading the handoff: %w", err))
	}
	size := binary.BigEndian.Uint32(head)
	if size > maxHandoff {
		return fail(fmt.Errorf("handoff of %d bytes refused", size))
	}
	body := make([]byte, size)
	if _, err := io.ReadFull(c, body); err != nil {
		return fail(fmt.Errorf("reading the handoff: %w", err))
	}
	var w handoffWire
	if err := json.Unmarshal(body, &w); err != nil {
		return fail(fmt.Errorf("reading the handoff: %w", err))
	}
	if w.Magic != handoffMagic {
		return fail(fmt.Errorf("not a %s handoff (a daemon of another version?)", handoffMagic))
	}
	if w.Sandboxed && ruleset == nil {
		return fail(errors.New("a sandboxed handoff came without its Landlock ruleset"))
	}
	if w.Sandboxed && w.Channel && channel == nil {
		return fail(errors.New("a sandboxed handoff came without its socket supervision's channel"))
	}
	if !w.Sandboxed && ruleset != nil {
		_ = ruleset.Close()
		ruleset = nil
	}
	if (!w.Sandboxed || !w.Channel) && channel != nil {
		_ = channel.Close()
		channel = nil
	}
	return &Handoff{sandboxed: w.Sandboxed, shell: w.Shell, p: prepared{Command: w.Command, Dir: w.Dir, Env: w.Env,
		TmpDir: w.TmpDir, Policy: w.Policy, Namespaces: w.Namespaces, NewNet: w.NewNet, Gated: w.Gated, Ruleset: ruleset, Channel: channel}}, nil
}

// cmd is the command the stub starts: the launcher (sandboxed), or bash
// in a session of its own, SIGKILLed when the starting thread exits.
func (h *Handoff) cmd() *exec.Cmd {
	if h.sandboxed {
		return h.p.cmd()
	}
	cmd := exec.Command(h.shell, "-c", h.p.Command)
	cmd.Dir, cmd.Env = h.p.Dir, h.p.Env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Pdeathsig: syscall.SIGKILL}
	return cmd
}

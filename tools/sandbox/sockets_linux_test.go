package sandbox

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/internal/await"
)

// socketCase is one connection a sandboxed command tries, and whether it
// must get through.
type socketCase struct {
	name, target string
	server       *hostServer // the listener that must (or must not) see it
	works        bool
	explain      string // what the model reads of a refusal ("": not checked)
}

// TestSocketsConfined: a sandboxed command cannot reach the host's IPC
// through unix sockets (an editor's msgpack-RPC socket in /tmp/nvimXXXX,
// an ssh agent's, either through a symlink in the workspace, an abstract
// name, a datagram to a syslog-like socket), nor a host loopback port not
// in sandbox.hostPorts; it can reach sockets in the workspace and its
// temp dir, the sockets of sandbox.allowSockets and the host ports named.
// The listener outside sees no connection from a refused attempt. Run
// with namespaces (network local and allow), without, and through the Go
// launcher; TestSocketsConfinedAsNobody runs it again as nobody.
func TestSocketsConfined(t *testing.T) {
	for _, c := range []struct {
		name string
		st   Settings
		goL  bool
	}{
		{"namespaces, network local", Settings{}, false},
		{"namespaces, network allow", Settings{Network: NetworkAllow}, false},
		{"no namespaces, network local", Settings{NoNamespaces: true}, false},
		{"Go launcher", Settings{}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.goL {
				t.Setenv(envGoLauncher, "1")
			}
			testSocketsConfined(t, c.st)
		})
	}
}

func testSocketsConfined(t *testing.T, st Settings) {
	f := newFixture(t)
	editorDir, err := os.MkdirTemp("", "nvim")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(editorDir) })
	agentDir := filepath.Join(f.outside, "ssh-XXXXabc")
	allowedDir := filepath.Join(f.outside, "run")
	for _, d := range []string{agentDir, allowedDir} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	tag := strconv.Itoa(os.Getpid())
	editor := listenHost(t, "unix", filepath.Join(editorDir, "nvim.0"), "the editor")
	agent := listenHost(t, "unix", filepath.Join(agentDir, "agent.1234"), "the ssh agent")
	abstract := listenHost(t, "unix", "@agent-lsp-test-"+tag, "an abstract listener")
	syslog := listenHost(t, "unixgram", filepath.Join(f.outside, "log"), "syslog")
	allowedSock := listenHost(t, "unix", filepath.Join(allowedDir, "db.sock"), "the allowed socket")
	portA := listenHost(t, "tcp", "127.0.0.1:0", "host port A")
	portB := listenHost(t, "tcp", "127.0.0.1:0", "host port B")
	if err := os.Symlink(filepath.Join(agentDir, "agent.1234"), filepath.Join(f.ws, "agent.sock")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(editorDir, filepath.Join(f.ws, "editor")); err != nil {
		t.Fatal(err)
	}

	st.HostPorts = []int{portA.port()}
	st.AllowSockets = []string{filepath.Join(allowedDir, "db.sock")}
	s := newSandbox(t, f, st)
	if !s.Status().Active {
		t.Fatalf("sandbox not active: %s", s.Status().Summary())
	}
	t.Logf("uid %d: %s", os.Getuid(), s.Status().Summary())
	inWS := listenHost(t, "unix", filepath.Join(f.ws, "app.sock"), "the workspace's server")
	inTmp := listenHost(t, "unix", filepath.Join(s.Status().TmpDir, "t.sock"), "the temp dir's server")

	private := s.Status().Namespaces && st.Network != NetworkAllow
	refusedUnix := func(path string) string {
		return "blocked by the sandbox: connection to the unix socket " + path + " refused"
	}
	abstractRefusal := "blocked by the sandbox: connection to the abstract unix socket @agent-lsp-test-" + tag + " refused"
	portRefusal := "every TCP connection is refused, loopback too" // no namespaces (under allow the case is skipped)
	if private {
		abstractRefusal = "the abstract unix socket @agent-lsp-test-" + tag + " is not reachable"
		portRefusal = "sandbox.hostPorts: " + strconv.Itoa(portA.port())
	}
	for _, c := range []socketCase{
		{"an editor's RPC socket", "unix:" + filepath.Join(editorDir, "nvim.0"), editor, false, refusedUnix(filepath.Join(editorDir, "nvim.0"))},
		{"an ssh agent", "unix:" + filepath.Join(agentDir, "agent.1234"), agent, false, refusedUnix(filepath.Join(agentDir, "agent.1234"))},
		{"a link in the workspace to the agent", "unix:agent.sock", agent, false, refusedUnix(filepath.Join(agentDir, "agent.1234"))},
		{"a relative path out of the workspace", "unix:../outside/ssh-XXXXabc/agent.1234", agent, false, refusedUnix(filepath.Join(agentDir, "agent.1234"))},
		{"a linked dir in the workspace", "unix:" + filepath.Join(f.ws, "editor", "nvim.0"), editor, false, "sandbox.allowSockets"},
		{"an abstract name outside", "unix:@agent-lsp-test-" + tag, abstract, false, abstractRefusal},
		{"a datagram to a syslog-like socket", "unixgram:" + filepath.Join(f.outside, "log"), syslog, false, "unix datagram sockets cannot be created"},
		{"a host port not allowed", "tcp:127.0.0.1:" + strconv.Itoa(portB.port()), portB, false, portRefusal},
		{"a host port not allowed, by TCP Fast Open", "fastopen:" + strconv.Itoa(portB.port()), portB, false, ""},
		{"a socket in the workspace", "unix:" + filepath.Join(f.ws, "app.sock"), inWS, true, ""},
		{"a socket in the workspace, relative", "unix:app.sock", inWS, true, ""},
		{"a socket in the temp dir", "unix:" + filepath.Join(s.Status().TmpDir, "t.sock"), inTmp, true, ""},
		{"an allowed socket", "unix:" + filepath.Join(allowedDir, "db.sock"), allowedSock, true, ""},
		{"an allowed host port", "tcp:127.0.0.1:" + strconv.Itoa(portA.port()), portA, true, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.server == portB && st.Network == NetworkAllow {
				t.Skip("network allow: the host's whole network is reachable")
			}
			before := c.server.connections()
			out, code, explain := run(t, s, f, envDialHelper+"="+c.target+" "+testBinary())
			got := c.server.connections() - before
			if c.works {
				if code != 0 || !strings.Contains(out, "dial ok: hello from "+c.server.name) || got != 1 {
					t.Errorf("%s: exit %d, output %q, %d connections; want it to get through", c.target, code, out, got)
				}
				return
			}
			if code == 0 || got != 0 {
				t.Fatalf("%s got through: exit %d, output %q, %d connections at %s", c.target, code, out, got, c.server.name)
			}
			if c.explain != "" && (!strings.Contains(explain, c.explain) || !strings.Contains(explain, HintUnsandboxed)) {
				t.Errorf("output %q\nexplained as %q\nwant it to say %q", out, explain, c.explain)
			}
		})
	}
	t.Run("an abstract name of the command's own", func(t *testing.T) {
		out, code, _ := run(t, s, f, envDialHelper+"=self:unix:@agent-lsp-own-"+tag+" "+testBinary())
		works := strings.Contains(out, "dial ok: hello from the command itself")
		// Only a private network namespace keeps the host's abstract
		// names out of reach; elsewhere every abstract name is refused.
		if works != private || (code == 0) != private {
			t.Errorf("exit %d, output %q; want it to work: %v", code, out, private)
		}
	})
	t.Run("io_uring", func(t *testing.T) {
		out, code, _ := run(t, s, f, envDialHelper+"=io_uring "+testBinary())
		if code == 0 || !strings.Contains(out, "function not implemented") {
			t.Errorf("io_uring: exit %d, output %q; want it refused (ENOSYS)", code, out)
		}
	})
}

// TestSocketsConfinedAsNobody runs the socket tests as nobody, in a
// non-dumpable process as the daemon is: the supervisor must still read
// its commands' sockets and memory.
func TestSocketsConfinedAsNobody(t *testing.T) {
	tests := []string{"TestSocketsConfined", "TestSocketSupervisionEndsWithTheCommand", "TestSocketSupervisionAbortsConnects",
		"TestSocketConnectSurvivesSignals", "TestHostPortBelow1024", "TestSocketRacesStayInside"}
	out := runAsNobody(t, "^("+strings.Join(tests, "|")+")$")
	for _, test := range tests {
		if !bytes.Contains(out, []byte("--- PASS: "+test+" ")) {
			t.Fatalf("as nobody, %s did not pass:\n%s", test, out)
		}
	}
	t.Logf("as nobody:\n%s", lastLines(string(out), 4))
}

// A command's supervision ends with the command: when its last process is
// gone the seccomp listener hangs up and the supervisor (and its host port
// forwarding) stops, without waiting for the Sandbox to close. A command
// that leaves a process behind in the background keeps it until that
// process is gone (the PID namespace ends it with bash).
func TestSocketSupervisionEndsWithTheCommand(t *testing.T) {
	f := newFixture(t)
	s := newSandbox(t, f, Settings{HostPorts: []int{listenHost(t, "tcp", "127.0.0.1:0", "a host port").port()}})
	for _, command := range []string{"true", "sleep 1000 & echo started"} {
		if _, code, _ := run(t, s, f, command); code != 0 {
			t.Fatalf("%s: exit %d", command, code)
		}
		await.Until(t, "the supervisors to end with "+command, func() <-chan struct{} {
			_, ch := s.sup.running()
			return ch
		}, func() bool {
			n, _ := s.sup.running()
			return n == 0
		})
	}
}

// A connect still waiting for its peer when the command ends (a blocking
// TCP connect to an address that never answers takes minutes to give up)
// does not keep the supervision, or the Sandbox's Close, waiting.
func TestSocketSupervisionAbortsConnects(t *testing.T) {
	f := newFixture(t)
	s := newSandbox(t, f, Settings{Network: NetworkAllow})
	// The helper's connect to the full listener (the host's network, in
	// this test's process, so it outlives the command) waits for minutes;
	// `timeout` ends the command after a second meanwhile.
	port := fullListener(t)
	out, code, _ := run(t, s, f, "timeout -s KILL 1 env "+envDialHelper+"=blocking-tcp:"+strconv.Itoa(port)+" "+testBinary())
	if code == 0 || !strings.Contains(out, "connecting") || strings.Contains(out, "connect returned") {
		t.Fatalf("exit %d, output %q: want a connect ended by the timeout", code, out)
	}
	await.Until(t, "the supervisor to end with the command", func() <-chan struct{} {
		_, ch := s.sup.running()
		return ch
	}, func() bool {
		n, _ := s.sup.running()
		return n == 0
	})
}

// A connect the supervisor makes is made once, even when the command is
// signalled while it waits (Go's runtime signals its threads all the
// time): a restarted call would connect the connected socket again and
// fail (EISCONN). The launcher asks the kernel to let only a fatal signal
// interrupt a call the supervisor has taken (WAIT_KILLABLE_RECV).
func TestSocketConnectSurvivesSignals(t *testing.T) {
	f := newFixture(t)
	s := newSandbox(t, f, Settings{})
	for _, goLauncher := range []bool{false, true} {
		if goLauncher {
			t.Setenv(envGoLauncher, "1")
		}
		out, code, _ := run(t, s, f, envDialHelper+"=signalled-connects:3000 "+testBinary())
		if code != 0 || !strings.HasPrefix(out, "ns-per-connect:") {
			t.Errorf("Go launcher %v: exit %d, output %q; want every connect to succeed", goLauncher, code, out)
		}
	}
}

// A host port below 1024 (a dev server on 80, 443) can be forwarded too:
// the launcher binds it in the command's network namespace, as an
// ordinary user as well (TestSocketsConfinedAsNobody runs this again),
// where without CAP_NET_BIND_SERVICE the bind failed and the sandbox fell
// back to no namespaces.
func TestHostPortBelow1024(t *testing.T) {
	f := newFixture(t)
	s := newSandbox(t, f, Settings{HostPorts: []int{81}})
	// Nothing listens on the host's port 81 (and an ordinary user could
	// not make it): the forwarder accepts inside and closes, so the
	// helper reads the end of the stream where without forwarding its
	// connect would be refused.
	if !s.Status().Namespaces {
		t.Fatalf("no namespaces with host port 81: %s", s.Status().Summary())
	}
	out, code, _ := run(t, s, f, envDialHelper+"=tcp:127.0.0.1:81 "+testBinary())
	if !strings.Contains(out, "reading: EOF") {
		t.Fatalf("with host port 81: exit %d, output %q; want the forwarder to accept", code, out)
	}
}

package sandbox

import (
	"strings"
	"testing"
)

// A refused connection to the host's loopback reads to the model as the
// sandbox's doing, in the phrasing of the usual clients, with the ports
// sandbox.hostPorts opens and how to ask for more; a port that is
// forwarded, or a sandbox with the host's network, is not explained.
func TestExplainRefusedLoopback(t *testing.T) {
	s := &Sandbox{settings: Settings{HostPorts: []int{3000}},
		status: Status{Active: true, Namespaces: true, Network: NetworkLocal}}
	for _, c := range []struct{ output, want string }{
		{"curl: (7) Failed to connect to 127.0.0.1 port 5432 after 0 ms: Couldn't connect to server", "127.0.0.1:5432 was refused"},
		{"curl: (7) Failed to connect to localhost port 8080 after 0 ms: Connection refused", "localhost:8080 was refused"},
		{`psql: error: connection to server at "127.0.0.1", port 5432 failed: Connection refused`, "--sandbox-host-port 5432"},
		{"Error: connect ECONNREFUSED 127.0.0.1:6379", "except the ports in sandbox.hostPorts: 3000"},
		{"dial tcp [::1]:9000: connect: connection refused", "[::1]:9000 was refused"},
		{"dial unix @/tmp/.X11-unix/X0: connect: connection refused", "the abstract unix socket @/tmp/.X11-unix/X0 is not reachable"},
	} {
		got := s.Explain(c.output)
		if !strings.Contains(got, c.want) || !strings.Contains(got, HintUnsandboxed) {
			t.Errorf("%q\nexplained as %q\nwant %q", c.output, got, c.want)
		}
	}
	if got := s.Explain("curl: (7) Failed to connect to 127.0.0.1 port 3000 after 0 ms: Connection refused"); got != "" {
		t.Errorf("a forwarded port was explained: %q", got)
	}
	s.status.Network = NetworkAllow
	if got := s.Explain("Error: connect ECONNREFUSED 127.0.0.1:6379"); got != "" {
		t.Errorf("network allow: explained %q", got)
	}
}

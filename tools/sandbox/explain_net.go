package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/agent-lsp/agent-lsp/permission"
)

// How the sandbox's refusals of host IPC and host loopback services read
// to the model (Explain calls these).

// refusedPhrases are how programs report a connection nothing accepted.
var refusedPhrases = []string{"Connection refused", "connection refused", "ECONNREFUSED", "Couldn't connect to server"}

// loopbackPort finds the host's loopback and a port in a refusal: curl's
// "127.0.0.1 port 5432", Go's and Node's "127.0.0.1:5432", psql's
// `"127.0.0.1", port 5432`, "[::1]:3000", "localhost:8080".
var loopbackPort = permission.LazyRegexp(`(127\.[0-9]+\.[0-9]+\.[0-9]+|localhost|\[::1\]|::1)"?(?::|,? port )([0-9]{1,5})\b`)

// refusedLoopback explains a refused connection to the host's loopback
// under network local with namespaces: the command has a loopback of its
// own, so a service on the host's is not there unless its port is in
// sandbox.hostPorts. "" when the line is not that.
func (s *Sandbox) refusedLoopback(line string) string {
	if !s.status.Namespaces || s.status.Network != NetworkLocal || !containsAny(line, refusedPhrases) {
		return ""
	}
	m := loopbackPort().FindStringSubmatch(line)
	if m == nil {
		return ""
	}
	port, _ := strconv.Atoi(m[2])
	for _, p := range s.settings.HostPorts {
		if p == port {
			return "" // forwarded: the host's own service refused it
		}
	}
	return fmt.Sprintf("blocked by the sandbox: the connection to %s:%d was refused because commands run in their own network namespace (sandbox network: local): "+
		"their 127.0.0.1 is their own, so only servers the command starts itself listen there, and the host's loopback services are not reachable%s. "+
		"If the command needs a service running on the host's port %d, the user can add it to sandbox.hostPorts (--sandbox-host-port %d) or set the sandbox network to allow",
		m[1], port, s.hostPortsAllowed(), port, port)
}

// abstractName finds an abstract unix socket's name as Go, socat and
// others print it ("dial unix @name: ...").
var abstractName = permission.LazyRegexp(`(?:^|[\s'"])(@[^\s'":]+)`)

// refusedAbstract explains a refused connection to an abstract unix
// socket in a network namespace of the command's own, where the host's
// abstract names do not exist. "" when the line is not that.
func (s *Sandbox) refusedAbstract(line string) string {
	if !s.status.Namespaces || s.status.Network == NetworkAllow || !containsAny(line, refusedPhrases) {
		return ""
	}
	m := abstractName().FindStringSubmatch(line)
	if m == nil {
		return ""
	}
	return "blocked by the sandbox: the abstract unix socket " + m[1] + " is not reachable: abstract socket names belong to a network namespace, and commands run in their own, so only the command's own abstract sockets are there, not the host's"
}

// hostPortsAllowed lists sandbox.hostPorts for a message.
func (s *Sandbox) hostPortsAllowed() string {
	if len(s.settings.HostPorts) == 0 {
		return " (sandbox.hostPorts is empty)"
	}
	ports := make([]string, len(s.settings.HostPorts))
	for i, p := range s.settings.HostPorts {
		ports[i] = strconv.Itoa(p)
	}
	return " except the ports in sandbox.hostPorts: " + strings.Join(ports, ", ")
}

// hostPortsAnywhere qualifies the no-namespace fallback's limit: the
// ports of sandbox.hostPorts are open at every address, not only the
// host's loopback.
func (s *Sandbox) hostPortsAnywhere() string {
	if len(s.settings.HostPorts) == 0 {
		return ""
	}
	return " but to the ports of sandbox.hostPorts, which are then reachable at every address"
}

// unixSocketRefused is the explanation of a refused unix socket.
func unixSocketRefused(path string) string {
	if strings.HasPrefix(path, "@") {
		return "connection to the abstract unix socket " + path + " refused: without a network namespace of its own a command cannot tell the host's abstract sockets from its own, so it may use none (sandbox network: allow, or no namespaces here)"
	}
	return "connection to the unix socket " + path + " refused: only sockets in the workspace and the sandbox's temp dir are reachable (an editor's, ssh-agent's, D-Bus's or docker's socket would let a command act outside the sandbox); the user can allow this one with sandbox.allowSockets (--sandbox-allow-socket " + path + ")"
}

// isSocket reports whether path is a unix socket file.
func isSocket(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode()&os.ModeSocket != 0
}

// datagramRefused is the explanation of a unix datagram socket the filter
// refused to create.
const datagramRefused = "unix datagram sockets cannot be created in the sandbox (a datagram names its destination, and could reach the host's syslog or journald); a unix stream socket works"

// refusedSockets explains the unix sockets the supervisor refused that
// the output names (by path or file name), or, when the output reports a
// refusal it names no path for, all of them. It forgets them: each is
// explained once, by the command that tried (or one running beside it).
func (s *Sandbox) refusedSockets(output string, lines []string) []string {
	var out []string
	denied := strings.Contains(strings.ToLower(output), "permission denied") || strings.Contains(output, "EACCES")
	for _, p := range s.sup.takeRefused() {
		named := strings.Contains(output, p) || (!strings.HasPrefix(p, "@") && strings.Contains(output, filepath.Base(p)))
		if named || (denied && len(lines) == 0) {
			out = append(out, "blocked by the sandbox: "+unixSocketRefused(p))
		}
	}
	if len(out) == 0 && strings.Contains(strings.ToLower(output), "socket: permission denied") {
		out = append(out, "blocked by the sandbox: "+datagramRefused)
	}
	return out
}

package permission

import (
	"strings"
)

// Raw sockets (nc, socat, telnet, openssl s_client, bash's /dev/tcp) and
// file transfers (scp, rsync, sftp, rclone, cloud copies, mail) send
// whatever they are given; only loopback peers are ordinary.

// rawLoopback reports whether a raw-socket client (nc host port, socat
// TCP:host:port, telnet host, openssl s_client -connect host:port) only
// talks to this machine.
func (a *assessor) rawLoopback(prog string, rest []arg) bool {
	hosts := 0
	for i, x := range rest {
		switch {
		case !x.known:
			return false
		case prog == "socat":
			for _, addr := range []string{"TCP:", "TCP4:", "TCP6:", "UDP:", "UDP4:", "UDP6:", "OPENSSL:", "SSL:"} {
				if rest, ok := strings.CutPrefix(strings.ToUpper(x.text), addr); ok {
					host, _, _ := strings.Cut(x.text[len(x.text)-len(rest):], ":")
					if !isLoopbackHost(host) {
						return false
					}
					hosts++
				}
			}
		case prog == "openssl":
			if x.text == "-connect" && i+1 < len(rest) {
				if !isLoopbackHost(hostOfURL(rest[i+1].text)) {
					return false
				}
				hosts++
			}
		case x.isOption() || strings.Trim(x.text, "0123456789-") == "":
		default:
			if i > 0 && rest[i-1].isOption() && len(rest[i-1].text) == 2 && strings.Contains("pswiqxXOIT", rest[i-1].text[1:]) {
				continue // the value of -p, -s, -w, ...
			}
			if !isLoopbackHost(hostOfURL(x.text)) {
				return false
			}
			hosts++
		}
	}
	return hosts > 0
}

// rawSocket rates nc, socat, telnet and openssl s_client: a shell wired
// to a socket is HIGH always; a connection elsewhere than loopback is a
// send; a bare listener is ordinary.
func (a *assessor) rawSocket(prog string, rest []arg) {
	for _, x := range rest {
		u := strings.ToUpper(x.text)
		if (prog != "socat" && prog != "openssl" && (x.text == "-e" || x.text == "-c" || strings.HasPrefix(x.text, "--exec") ||
			strings.HasPrefix(x.text, "--sh-exec") || strings.HasPrefix(x.text, "--lua-exec"))) ||
			(prog == "socat" && (strings.HasPrefix(u, "EXEC:") || strings.HasPrefix(u, "SYSTEM:"))) {
			a.flag(High, prog+" connects a program to the network (remote shell)")
			return
		}
	}
	if prog == "openssl" && subcommand(prog, rest) != "s_client" {
		return
	}
	if hasOption(rest, "-l", "--listen", "-lp", "-lvp", "-lnvp", "-nlvp", "-lv") && prog != "socat" {
		a.raise(Medium)
		return
	}
	if prog == "socat" {
		listen := true
		for _, x := range rest {
			u := strings.ToUpper(x.text)
			if !x.isOption() && !strings.Contains(u, "LISTEN") && !strings.HasPrefix(u, "STDIO") && x.text != "-" {
				listen = false
			}
		}
		if listen {
			a.raise(Medium)
			return
		}
	}
	if a.rawLoopback(prog, rest) {
		a.raise(Medium)
		return
	}
	if prog == "nc" || prog == "ncat" || prog == "netcat" {
		if hasOption(rest, "-z", "-zv", "-vz", "-zw1", "-vzw1") && onlyLoopbackOrUnset(rest) {
			a.raise(Medium)
			return
		}
	}
	a.send(prog+" opens a raw network connection", false)
}

func onlyLoopbackOrUnset(rest []arg) bool {
	for _, x := range rest {
		if !x.isOption() && strings.Trim(x.text, "0123456789-") != "" && !isLoopbackHost(x.text) {
			return false
		}
	}
	return true
}

// devNet rates a redirection to bash's /dev/tcp/host/port or /dev/udp/….
func (a *assessor) devNet(t string) bool {
	rest, ok := strings.CutPrefix(t, "/dev/tcp/")
	if !ok {
		rest, ok = strings.CutPrefix(t, "/dev/udp/")
	}
	if !ok {
		return false
	}
	host, _, _ := strings.Cut(rest, "/")
	if !isLoopbackHost(host) {
		a.send("opens a network connection through "+t, false)
	}
	a.raise(Medium)
	return true
}

// remoteOperand reports whether a word names a remote path for scp/rsync:
// host:path or user@host:path (not /abs, ./rel, or C:\…).
func remoteOperand(x arg) bool {
	t := x.text
	if strings.HasPrefix(t, "/") || strings.HasPrefix(t, ".") || strings.HasPrefix(t, "~") {
		return false
	}
	if strings.HasPrefix(t, "rsync://") || strings.HasPrefix(t, "scp://") || strings.HasPrefix(t, "sftp://") {
		return true
	}
	i := strings.Index(t, ":")
	return i > 0 && !strings.Contains(t[:i], "/")
}

// transfer rates scp, rsync, sftp, rclone and cloud copies: a remote
// destination sends files off the machine.
func (a *assessor) transfer(prog string, rest []arg) {
	switch prog {
	case "sftp", "ftp", "lftp", "tftp", "smbclient":
		a.send(prog+" transfers files to another machine", false)
		return
	case "mail", "mailx", "sendmail", "mutt":
		a.send(prog+" sends mail", false)
		return
	case "rclone":
		sub := subcommand(prog, rest)
		ops := operands(rest, nil)
		if (sub == "copy" || sub == "sync" || sub == "move" || sub == "copyto" || sub == "moveto") && len(ops) >= 3 &&
			strings.Contains(ops[len(ops)-1].text, ":") {
			a.send("rclone "+sub+" sends files to a remote", false)
		}
		return
	case "gsutil", "aws", "az":
		ops := operands(rest, set("--profile", "--region", "--endpoint-url"))
		for _, s := range ops {
			if t := a.resolve(s); s.known && a.readsCredential(t) {
				a.flag(High, prog+" sends credentials to another machine: "+t.shown)
			}
		}
		if len(ops) >= 3 {
			last := ops[len(ops)-1].text
			if (prog == "gsutil" || ops[0].text == "s3") && (strings.HasPrefix(last, "s3://") || strings.HasPrefix(last, "gs://")) {
				a.send(prog+" uploads files to a bucket", false)
			}
		}
		if prog == "az" && hasOption(rest, "upload", "upload-batch") {
			a.send("az uploads files", false)
		}
		return
	}
	ops := operands(rest, set("-P", "-i", "-o", "-F", "-l", "-S", "-c", "-J", "-e", "--rsh", "-f", "--filter",
		"--exclude", "--include", "--port"))
	if len(ops) < 2 {
		return
	}
	dest := ops[len(ops)-1]
	if !dest.known || remoteOperand(dest) {
		for _, s := range ops[:len(ops)-1] {
			if t := a.resolve(s); s.known && a.readsCredential(t) {
				a.flag(High, prog+" sends credentials to another machine: "+t.shown)
			}
		}
		a.send(prog+" sends files to another machine: "+dest.raw(), false)
	}
}

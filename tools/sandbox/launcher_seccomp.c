//go:build linux && cgo

// The C launcher's part of the unix socket supervision (see
// sockets_linux.go and seccomp_filter_linux.go, which builds the filter):
// listen on the allowed host ports inside the command's network
// namespace, install the seccomp filter with a user-notification
// listener, and hand the listener and the port sockets to the daemon over
// the inherited channel, keeping no copy. The Go launcher does the same
// in launcher_sockets_linux.go.

#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

static void sockets_fail(const char *what) {
	fprintf(stderr, "agent-lsp sandbox: %s: %s\n", what, strerror(errno));
	_exit(125);
}

// agent_lsp_listen_host_port listens on 127.0.0.1:port in the command's
// network namespace; the daemon accepts there and forwards to the host.
int agent_lsp_listen_host_port(int port) {
	int one = 1;
	struct sockaddr_in sa;
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		sockets_fail("host port: socket");
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	memset(&sa, 0, sizeof sa);
	sa.sin_family = AF_INET;
	sa.sin_port = htons((unsigned short)port);
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(fd, (struct sockaddr *)&sa, sizeof sa) != 0 || listen(fd, 128) != 0)
		sockets_fail("host port: listening in the sandbox");
	return fd;
}

static int hexval(char c) {
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

// agent_lsp_seccomp_handoff installs the filter (hex of struct
// sock_filter, after no_new_privs) and sends its listener, then the port
// listeners, to the daemon on chan. Called last before exec, on the
// thread that execs.
void agent_lsp_seccomp_handoff(const char *hex, int chan, const int *ports, int nports) {
	size_t n = strlen(hex) / 2;
	unsigned char *code = malloc(n ? n : 1);
	if (code == NULL || n == 0 || n % sizeof(struct sock_filter) != 0) {
		errno = EINVAL;
		sockets_fail("seccomp: filter");
	}
	for (size_t i = 0; i < n; i++) {
		int hi = hexval(hex[2 * i]), lo = hexval(hex[2 * i + 1]);
		if (hi < 0 || lo < 0) {
			errno = EINVAL;
			sockets_fail("seccomp: filter");
		}
		code[i] = (unsigned char)(hi << 4 | lo);
	}
	struct sock_fprog prog = {.len = (unsigned short)(n / sizeof(struct sock_filter)), .filter = (struct sock_filter *)code};
	// WAIT_KILLABLE_RECV (Linux 5.19): once the daemon has the
	// notification, a signal cannot interrupt the call and restart it, so
	// a connect the daemon makes is not made twice. Older kernels refuse
	// the flag.
	int listener = (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
				    SECCOMP_FILTER_FLAG_NEW_LISTENER | SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV, &prog);
	if (listener < 0 && errno == EINVAL)
		listener = (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog);
	if (listener < 0)
		sockets_fail("seccomp: installing the filter");
	free(code);

	int nfds = 1 + nports;
	int *fds = calloc((size_t)nfds, sizeof *fds);
	char *cbuf = calloc(1, CMSG_SPACE(sizeof(int) * (size_t)nfds));
	if (fds == NULL || cbuf == NULL)
		sockets_fail("seccomp: handing over");
	fds[0] = listener;
	for (int i = 0; i < nports; i++)
		fds[1 + i] = ports[i];
	char byte = 's';
	struct iovec iov = {.iov_base = &byte, .iov_len = 1};
	struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf, .msg_controllen = CMSG_SPACE(sizeof(int) * (size_t)nfds)};
	struct cmsghdr *cm = CMSG_FIRSTHDR(&msg);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int) * (size_t)nfds);
	memcpy(CMSG_DATA(cm), fds, sizeof(int) * (size_t)nfds);
	if (sendmsg(chan, &msg, MSG_NOSIGNAL) != 1)
		sockets_fail("seccomp: handing the listener to the daemon");
	for (int i = 0; i < nfds; i++)
		close(fds[i]);
	close(chan);
	free(fds);
	free(cbuf);
}
